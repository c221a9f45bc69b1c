// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthFileStore
import Foundation
import Testing

/// The file store's fenced write (`replace(_:ifCurrent:with:)`), on which renewal fencing rests.
@Suite struct FencedWriteTests {
    static let key = CredentialKey(namespace: "api", account: "alice", item: "credential")

    /// A record file keeps times since 1970; an envelope the caller still holds in memory (such
    /// as one just upgraded) must still be recognised as the stored record.
    @Test func anEnvelopeHeldInMemoryMatchesTheRecordWrittenFromIt() async throws {
        try await TestFiles.withTemporaryFolder { folder in
            let store = try FileCredentialStore(directory: folder.appendingPathComponent("store"))
            for _ in 0..<200 {
                let written = Envelope(kind: "bearer", payload: Data(UUID().uuidString.utf8),
                                       updatedAt: Date(timeIntervalSinceReferenceDate: .random(in: 7e8...9e8)),
                                       expiresAt: Date(timeIntervalSinceReferenceDate: .random(in: 7e8...9e8)))
                try await store.put(written, for: Self.key)
                let next = Envelope(kind: "bearer", payload: Data("next".utf8), updatedAt: Date())
                #expect(try await store.replace(Self.key, ifCurrent: written, with: next))
            }
        }
    }

    @Test func aChangedOrMissingRecordIsNotReplaced() async throws {
        try await TestFiles.withTemporaryFolder { folder in
            let store = try FileCredentialStore(directory: folder.appendingPathComponent("store"))
            let first = Envelope(kind: "bearer", payload: Data("first".utf8), updatedAt: Date())
            let second = Envelope(kind: "bearer", payload: Data("second".utf8), updatedAt: Date())
            #expect(try await store.replace(Self.key, ifCurrent: nil, with: first))
            #expect(try await store.replace(Self.key, ifCurrent: nil, with: second) == false)
            #expect(try await store.replace(Self.key, ifCurrent: second, with: nil) == false)
            #expect(try await store.get(Self.key)?.payload == Data("first".utf8))
            #expect(try await store.replace(Self.key, ifCurrent: try await store.get(Self.key), with: nil))
            #expect(try await store.get(Self.key) == nil)
        }
    }
}
