// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthSQLiteStore
import AuthTesting
import Foundation
import GRDB
import Synchronization
import Testing

@Suite struct RefreshLeaseTests {
    /// A wall clock the test moves by hand, shared by several store instances.
    final class ManualClock: Sendable {
        private let current = Mutex(Date(timeIntervalSinceReferenceDate: 800_000_000))
        func now() -> Date { current.withLock { $0 } }
        func advance(by seconds: TimeInterval) { current.withLock { $0 += seconds } }
    }

    actor Probe {
        private(set) var current = 0
        private(set) var maximum = 0
        private(set) var entries = 0
        func enter() { current += 1; entries += 1; maximum = max(maximum, current) }
        func leave() { current -= 1 }
    }

    /// The expiry of every lease row in the file.
    static func leaseRows(_ path: String) async throws -> [Double?] {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try await queue.read { db in try Optional<Double>.fetchAll(db, sql: "SELECT expires_at FROM refresh_lease") }
    }

    /// A caller of this process waiting for the refresh lock that another caller of this
    /// process holds gives up at the lock timeout, or when cancelled: it waited as long as the
    /// holder held the lock (a renewal retrying a write to a failing store holds it throughout).
    @Test func aWaiterInThisProcessGivesUpAtTheLockTimeoutOrWhenCancelled() async throws {
        try await TestSupport.withTemporaryDirectory { directory in
            let store = try await SQLiteCredentialStore.open(at: directory.appendingPathComponent("lease.sqlite").path, options: SQLiteStoreOptions(lockTimeout: .milliseconds(150)))
            try await CredentialStoreConformance.checkRefreshLockWaitsAreBounded(store)
        }
    }

    @Test func twoStoreInstancesOnOneFileExcludeEachOther() async throws {
        try await TestSupport.withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("lease.sqlite").path
            let stores = [try await SQLiteCredentialStore.open(at: path), try await SQLiteCredentialStore.open(at: path)]
            let account = AccountKey(namespace: "lock", account: "alice")
            let probe = Probe()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<12 {
                    group.addTask {
                        try await stores[index % 2].withRefreshLock(for: account) {
                            await probe.enter()
                            try await Task.sleep(for: .milliseconds(3))
                            await probe.leave()
                        }
                    }
                }
                try await group.waitForAll()
            }
            #expect(await probe.maximum == 1)
            #expect(await probe.entries == 12)
            #expect(try await Self.leaseRows(path).isEmpty, "a released lease left its row behind")
        }
    }

    @Test func aLeaseHeldElsewhereMakesTheLockUnavailableUntilItExpires() async throws {
        try await TestSupport.withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("stale.sqlite").path
            let clock = ManualClock()
            let options = SQLiteStoreOptions(leaseDuration: .seconds(10), lockTimeout: .milliseconds(150), now: { clock.now() })
            let store = try await SQLiteCredentialStore.open(at: path, options: options)
            let account = AccountKey(namespace: "lock", account: "alice")
            // A process that crashed while holding the lease left this row.
            let queue = try DatabaseQueue(path: path)
            try await queue.write { db in
                try db.execute(
                    sql: "INSERT INTO refresh_lease (namespace, account, owner, expires_at) VALUES (CAST('lock' AS BLOB), CAST('alice' AS BLOB), 'crashed-process', ?)",
                    arguments: [clock.now().timeIntervalSinceReferenceDate + 10])
            }
            try queue.close()

            let error = await TestSupport.storeError {
                try await store.withRefreshLock(for: account) { _ = Issue.record("the body ran while another owner held the lease") }
            }
            #expect(error?.code == .unavailable)

            clock.advance(by: 11)  // the crashed holder's lease has lapsed
            let ran = try await store.withRefreshLock(for: account) { true }
            #expect(ran)
            #expect(try await Self.leaseRows(path).isEmpty)
        }
    }

    @Test func theLeaseIsReleasedWhenTheBodyThrows() async throws {
        struct BodyFailed: Error {}
        try await TestSupport.withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("throws.sqlite").path
            let store = try await SQLiteCredentialStore.open(at: path)
            let account = AccountKey(namespace: "lock", account: "alice")
            await #expect(throws: BodyFailed.self) {
                try await store.withRefreshLock(for: account) { throw BodyFailed() }
            }
            #expect(try await Self.leaseRows(path).isEmpty)
            let other = try await SQLiteCredentialStore.open(at: path, options: SQLiteStoreOptions(lockTimeout: .milliseconds(100)))
            #expect(try await other.withRefreshLock(for: account) { 7 } == 7)
        }
    }

    @Test func aLiveHolderKeepsExtendingItsLease() async throws {
        try await TestSupport.withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("heartbeat.sqlite").path
            let clock = ManualClock()
            let options = SQLiteStoreOptions(leaseDuration: .milliseconds(300), lockTimeout: .milliseconds(150), now: { clock.now() })
            let holder = try await SQLiteCredentialStore.open(at: path, options: options)
            let contender = try await SQLiteCredentialStore.open(at: path, options: options)
            let account = AccountKey(namespace: "lock", account: "alice")
            let start = clock.now().timeIntervalSinceReferenceDate

            try await holder.withRefreshLock(for: account) {
                clock.advance(by: 60)  // far past the first expiry
                // Wait (bounded) until the holder's heartbeat has written an expiry past the new time.
                var extended = false
                for _ in 0..<200 where !extended {
                    try await Task.sleep(for: .milliseconds(25))
                    let expiry = try await Self.leaseRows(path).first ?? nil
                    extended = (expiry ?? 0) > start + 60
                }
                #expect(extended, "the lease was not extended while its holder ran")
                let error = await TestSupport.storeError {
                    try await contender.withRefreshLock(for: account) { _ = Issue.record("a contender got a live holder's lease") }
                }
                #expect(error?.code == .unavailable)
            }
            #expect(try await contender.withRefreshLock(for: account) { "free" } == "free")
        }
    }
}
