// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthSQLiteStore
import Foundation
import Testing

@Suite struct CipherAtRestTests {
    static let token = "plaintext-access-token-4f1b9c"

    /// Every byte the store left on disk: the database and its -wal file.
    func bytesOnDisk(_ path: String) -> String {
        [path, path + "-wal"].compactMap { FileManager.default.contents(atPath: $0) }
            .map { String(decoding: $0, as: Unicode.ASCII.self) }.joined()
    }

    func store(tokens: BearerTokenSet, cipher: (any CredentialCipher)?, at path: String) async throws {
        let store = try await SQLiteCredentialStore.open(at: path)
        let vault = CredentialVault(store: store, cipher: cipher)
        try await vault.save(tokens, for: AccountKey(namespace: "api", account: "alice"))
        #expect(try await vault.load(BearerTokenSet.self, for: AccountKey(namespace: "api", account: "alice")) == tokens)
    }

    @Test func withACipherTheFileHoldsNoPlaintextToken() async throws {
        try await TestSupport.withTemporaryDirectory { directory in
            let tokens = BearerTokenSet(accessToken: Self.token, refreshToken: Self.token + "-refresh", expiresAt: nil)
            let sealedPath = directory.appendingPathComponent("sealed.sqlite").path
            try await store(tokens: tokens, cipher: try AESGCMCipher(key: AESGCMCipher.generateKey()), at: sealedPath)
            #expect(!bytesOnDisk(sealedPath).contains(Self.token))

            // The control: without a cipher the same write is readable on disk, so the check above can fail.
            let plainPath = directory.appendingPathComponent("plain.sqlite").path
            try await store(tokens: tokens, cipher: nil, at: plainPath)
            #expect(bytesOnDisk(plainPath).contains(Self.token))
        }
    }

    @Test func containerRegistrationUsesTheStore() async throws {
        try await TestSupport.withTemporaryDirectory { directory in
            let container = AuthContainer()
            let path = directory.appendingPathComponent("c.sqlite").path
            let store = try await container.useSQLiteStore(at: path)
            let client = container.makeClient(for: AccountKey(namespace: "api", account: "bob"), strategy: APIKeyHeaderStrategy(allowedHosts: AllowedHosts(["api.example.com"])))
            try await client.signIn(APIKeyHeaderCredential(key: "k"))
            #expect(try await store.accounts(in: "api") == ["bob"])
        }
    }
}
