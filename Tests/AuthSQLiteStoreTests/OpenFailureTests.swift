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

@Suite struct OpenFailureTests {
    @Test func aFileOfRandomBytesIsReportedAsCorruptedAndLeftUntouched() async throws {
        try await TestSupport.withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("random.sqlite").path
            let bytes = Data((0..<8192).map { _ in UInt8.random(in: 0...255) })
            try bytes.write(to: URL(fileURLWithPath: path))

            let error = await TestSupport.storeError { _ = try await SQLiteCredentialStore.open(at: path) }
            #expect(error?.code == .corrupted)
            #expect(error?.path == path)
            #expect(error?.description.contains(path) == true)
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["random.sqlite"])
        }
    }

    @Test func aFileWithTheSQLiteHeaderButGarbageAfterItIsCorruptedAndUntouched() async throws {
        try await TestSupport.withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("garbage.sqlite").path
            let bytes = Data("SQLite format 3\u{0}".utf8) + Data((0..<8176).map { _ in UInt8.random(in: 0...255) })
            try bytes.write(to: URL(fileURLWithPath: path))

            let error = await TestSupport.storeError { _ = try await SQLiteCredentialStore.open(at: path) }
            #expect(error?.code == .corrupted)
            #expect(error?.path == path)
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        }
    }

    @Test func aDatabaseWithDamagedPagesIsCorruptedAndUntouched() async throws {
        try await TestSupport.withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("damaged.sqlite").path
            let store = try await SQLiteCredentialStore.open(at: path)
            var records: [CredentialKey: Envelope] = [:]
            for index in 0..<300 {
                records[CredentialKey(namespace: "n", account: "user\(index)", item: "credential")] =
                    TestSupport.envelope(String(repeating: "p\(index)", count: 200))
            }
            try await store.putMany(records)
            try await store.close()  // checkpoints the WAL into the file

            var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            let pageSize = 4096
            #expect(bytes.count > 12 * pageSize)
            for offset in (pageSize * 2)..<(pageSize * 12) { bytes[offset] = UInt8.random(in: 0...255) }
            try bytes.write(to: URL(fileURLWithPath: path))

            let error = await TestSupport.storeError { _ = try await SQLiteCredentialStore.open(at: path) }
            #expect(error?.code == .corrupted)
            #expect(error?.path == path)
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        }
    }

    @Test(arguments: [
        "INSERT INTO grdb_migrations (identifier) VALUES ('v2-from-a-newer-authkit')",
        "PRAGMA user_version = 2",
    ])
    func aSchemaNewerThanTheCodeIsAnIncompatibleVersion(change: String) async throws {
        try await TestSupport.withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("newer.sqlite").path
            let store = try await SQLiteCredentialStore.open(at: path)
            try await store.put(TestSupport.envelope("kept"), for: CredentialKey(namespace: "n", account: "a", item: "i"))
            try await store.close()
            let queue = try DatabaseQueue(path: path)
            try await queue.write { try $0.execute(sql: change) }
            try queue.close()
            let before = try Data(contentsOf: URL(fileURLWithPath: path))

            let error = await TestSupport.storeError { _ = try await SQLiteCredentialStore.open(at: path) }
            #expect(error?.code == .incompatibleVersion)
            #expect(error?.path == path)
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        }
    }

    @Test func aWriteLockHeldPastTheBusyTimeoutIsUnavailableNotMissing() async throws {
        try await TestSupport.withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("busy.sqlite").path
            let key = CredentialKey(namespace: "n", account: "alice", item: "credential")
            let options = SQLiteStoreOptions(busyTimeout: .milliseconds(200), lockTimeout: .milliseconds(300))
            let store = try await SQLiteCredentialStore.open(at: path, options: options)
            try await store.put(TestSupport.envelope("old"), for: key)

            var configuration = Configuration()
            configuration.allowsUnsafeTransactions = true
            let other = try DatabaseQueue(path: path, configuration: configuration)
            try await other.writeWithoutTransaction { try $0.execute(sql: "BEGIN EXCLUSIVE") }

            let putError = await TestSupport.storeError { try await store.put(TestSupport.envelope("new"), for: key) }
            #expect(putError?.code == .unavailable)
            let deleteError = await TestSupport.storeError { try await store.deleteAccount(key.accountKey) }
            #expect(deleteError?.code == .unavailable)
            let lockError = await TestSupport.storeError {
                try await store.withRefreshLock(for: key.accountKey) { _ = Issue.record("the lock body ran while the file was locked") }
            }
            #expect(lockError?.code == .unavailable)
            // Readers are not blocked by a writer in WAL mode: the record is still there.
            #expect(try await store.get(key)?.payload == Data("old".utf8))

            try await other.writeWithoutTransaction { try $0.execute(sql: "ROLLBACK") }
            try other.close()
            try await store.put(TestSupport.envelope("new"), for: key)
            #expect(try await store.get(key)?.payload == Data("new".utf8))
        }
    }

    @Test func optionsNoStoreCanHonourAreRejectedBeforeAnyFileIsCreated() async throws {
        try await TestSupport.withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("never.sqlite").path
            for options in [SQLiteStoreOptions(busyTimeout: .seconds(-1)), SQLiteStoreOptions(leaseDuration: .zero)] {
                let error = await TestSupport.storeError { _ = try await SQLiteCredentialStore.open(at: path, options: options) }
                #expect(error?.code == .invalidArgument)
            }
            #expect(!FileManager.default.fileExists(atPath: path))
        }
    }
}
