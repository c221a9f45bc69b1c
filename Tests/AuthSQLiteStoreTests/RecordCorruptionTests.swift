// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthSQLiteStore
import Foundation
import GRDB
import Testing

@Suite struct RecordCorruptionTests {
    @Test(arguments: [
        "UPDATE credential_record SET payload = 42",
        "UPDATE credential_record SET format_version = 'three'",
        "UPDATE credential_record SET updated_at = x'00'",
        "UPDATE credential_record SET kind = x'ff'",
        "UPDATE credential_record SET expires_at = 'tomorrow'",
    ])
    func aRecordThatCannotBeDecodedIsCorruptedWithItsKeyAndStaysInPlace(damage: String) async throws {
        try await TestSupport.withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("records.sqlite").path
            let bad = CredentialKey(namespace: "n", account: "alice", item: "credential")
            let good = CredentialKey(namespace: "n", account: "bob", item: "credential")
            let store = try await SQLiteCredentialStore.open(at: path)
            try await store.put(TestSupport.envelope("a"), for: bad)
            try await store.put(TestSupport.envelope("b"), for: good)

            let other = try DatabaseQueue(path: path)
            try await other.write { try $0.execute(sql: "\(damage) WHERE account = CAST('alice' AS BLOB)") }
            try other.close()

            let error = await TestSupport.storeError { _ = try await store.get(bad) }
            #expect(error?.code == .corrupted)
            #expect(error?.key == bad)
            #expect(try await store.get(good)?.payload == Data("b".utf8), "a damaged record hid another one")
            #expect(try await store.accounts(in: "n") == ["alice", "bob"], "the damaged record was dropped")
            let error2 = await TestSupport.storeError { _ = try await store.get(bad) }
            #expect(error2?.code == .corrupted, "the damaged record was removed after being reported")
        }
    }

    @Test func aClosedStoreFailsReadsWithIOAndKeepsTheRecords() async throws {
        try await TestSupport.withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("closed.sqlite").path
            let key = CredentialKey(namespace: "n", account: "alice", item: "credential")
            let store = try await SQLiteCredentialStore.open(at: path)
            try await store.put(TestSupport.envelope("a"), for: key)
            try await store.close()

            let error = await TestSupport.storeError { _ = try await store.get(key) }
            #expect(error?.code == .io)
            #expect(error?.key == key)
            let reopened = try await SQLiteCredentialStore.open(at: path)
            #expect(try await reopened.get(key)?.payload == Data("a".utf8))
            try await reopened.close()
        }
    }
}
