// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCache
import AuthCore
import AuthFileStore
import AuthSQLiteStore
import Foundation
import Testing

/// The NFC and NFD spellings of one account name are one account in every store, and a cache
/// over a store never answers one user's key with another user's record (issue 25).
@Suite struct KeyNormalizationStoreTests {
    static let composed = "caf\u{E9}", decomposed = "cafe\u{301}"

    enum Kind: String, CaseIterable, Sendable { case sqlite, file, cachedSQLite }

    static func open(_ kind: Kind, in folder: URL) async throws -> any CredentialStore {
        switch kind {
        case .sqlite: try await SQLiteCredentialStore.open(at: folder.appendingPathComponent("credentials.sqlite").path)
        case .file: try FileCredentialStore(directory: folder.appendingPathComponent("credentials"))
        case .cachedSQLite: CachingCredentialStore(try await SQLiteCredentialStore.open(at: folder.appendingPathComponent("cached.sqlite").path))
        }
    }

    @Test(arguments: Kind.allCases)
    func bothSpellingsAreOneRecord(kind: Kind) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("KeyNormalization-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try await Self.open(kind, in: folder)
        let nfc = CredentialKey(namespace: "shop", account: Self.composed, item: "credential")
        let nfd = CredentialKey(namespace: "shop", account: Self.decomposed, item: "credential")

        try await store.put(Envelope(kind: "k", payload: Data("first".utf8), updatedAt: Date()), for: nfc)
        _ = try await store.get(nfc)
        try await store.put(Envelope(kind: "k", payload: Data("second".utf8), updatedAt: Date()), for: nfd)

        #expect(try await store.accounts(in: "shop").count == 1)
        // A namespace is normalized where a store takes it as a plain string, too.
        try await store.put(Envelope(kind: "k", payload: Data("third".utf8), updatedAt: Date()), for: CredentialKey(namespace: "r\u{E9}gion", account: "x", item: "i"))
        #expect(try await store.accounts(in: "re\u{301}gion") == ["x"])
        #expect(try await store.get(nfc)?.payload == Data("second".utf8))
        #expect(try await store.get(nfd)?.payload == Data("second".utf8))
        try await store.deleteAccount(AccountKey(namespace: "shop", account: Self.decomposed))
        #expect(try await store.get(nfc) == nil)
        #expect(try await store.accounts(in: "shop").isEmpty)
    }
}
