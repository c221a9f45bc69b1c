// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
import Foundation
import GRDB

extension SQLiteCredentialStore {
    /// Runs `body` while holding the refresh lock of `account`, excluding every other caller in
    /// this process and in every other process that shares the database file.
    ///
    /// Callers in this process are serialised first with ``/AuthCore/AccountLocks``, so only one task per
    /// process polls the database. That task then takes a *lease*: a row of `refresh_lease` for
    /// the account, claimed inside a `BEGIN IMMEDIATE` transaction when it is absent, expired, or
    /// ours. The row names its owner (this store instance and a UUID per acquisition) and expires
    /// after ``SQLiteStoreOptions/leaseDuration``; while `body` runs the lease is extended every
    /// third of that duration, so it lapses only when its holder crashed or froze. Waiters retry
    /// with ``SQLiteStoreOptions/leaseRetryBackoff`` (full jitter) until
    /// ``SQLiteStoreOptions/lockTimeout``. When `body` returns or throws, the row is deleted if it
    /// is still ours; should that delete fail (the file locked past the busy timeout), the lease
    /// simply lapses.
    ///
    /// - Throws: `.unavailable` when the lock cannot be had before the lock timeout;
    ///   `CancellationError` when the task is cancelled while waiting; whatever `body` throws.
    public func withRefreshLock<T: Sendable>(
        for account: AccountKey,
        _ body: @Sendable () async throws -> T
    ) async throws -> T {
        // One deadline for both halves: the lock timeout bounds the whole wait.
        let deadline = ContinuousClock.now + options.lockTimeout
        return try await locks.withLock(account, waitingAtMost: options.lockTimeout) {
            let owner = "\(self.instanceID)/\(UUID().uuidString)"
            try await self.acquireLease(account, owner: owner, until: deadline)
            let outcome: Result<T, any Error> = await withTaskGroup(of: Void.self) { group in
                group.addTask { await self.keepLeaseAlive(account, owner: owner) }
                let outcome: Result<T, any Error>
                do { outcome = .success(try await body()) } catch { outcome = .failure(error) }
                group.cancelAll()
                return outcome
            }
            await self.releaseLease(account, owner: owner)
            return try outcome.get()
        }
    }

    private func acquireLease(_ account: AccountKey, owner: String, until deadline: ContinuousClock.Instant) async throws {
        let clock = ContinuousClock()
        var attempt = 0
        while true {
            var lastBusy: (any Error)?
            do {
                if try await tryTakeLease(account, owner: owner) { return }
            } catch let error as DatabaseError where SQLiteErrors.isBusy(error) {
                lastBusy = error
            } catch {
                throw SQLiteErrors.translate(error, operation: "taking the refresh lock of \(account)", path: path)
            }
            let remaining = deadline - clock.now
            guard remaining > .zero else {
                throw CredentialStoreError.unavailable(
                    "the refresh lock of \(account) is held by another process (or the file is locked) for longer than the lock timeout; try again later",
                    path: path, underlying: lastBusy)
            }
            try await Task.sleep(for: min(options.leaseRetryBackoff.delay(attempt: attempt), remaining))
            attempt += 1
        }
    }

    /// Claims the lease when it is free, expired or already ours; false when another holds it.
    private func tryTakeLease(_ account: AccountKey, owner: String) async throws -> Bool {
        let now = options.now()
        let expiry = now.addingTimeInterval(options.leaseDuration.seconds).timeIntervalSinceReferenceDate
        return try await pool.writeWithoutTransaction { db in
            var taken = false
            try db.inTransaction(.immediate) {
                let arguments = RecordCodec.arguments(account)
                let sql = "SELECT owner, expires_at FROM refresh_lease WHERE namespace = ? AND account = ?"
                if let row = try Row.fetchOne(db, sql: sql, arguments: arguments) {
                    let holder: DatabaseValue = row[0]
                    let expiresAt: DatabaseValue = row[1]
                    let heldByAnother = holder != owner.databaseValue
                        && (Double.fromDatabaseValue(expiresAt) ?? -.infinity) > now.timeIntervalSinceReferenceDate
                    if heldByAnother { return .rollback }
                }
                try db.execute(
                    sql: "INSERT OR REPLACE INTO refresh_lease (namespace, account, owner, expires_at) VALUES (?, ?, ?, ?)",
                    arguments: arguments + [owner, expiry])
                taken = true
                return .commit
            }
            return taken
        }
    }

    /// Extends the lease every third of its duration until cancelled. Failures are retried at the
    /// next beat; if the file stays locked for a whole lease duration, the lease may lapse.
    private func keepLeaseAlive(_ account: AccountKey, owner: String) async {
        let beat = options.leaseDuration / 3
        while !Task.isCancelled {
            do { try await Task.sleep(for: beat) } catch { return }
            let expiry = options.now().addingTimeInterval(options.leaseDuration.seconds).timeIntervalSinceReferenceDate
            _ = try? await pool.write { db in
                try db.execute(
                    sql: "UPDATE refresh_lease SET expires_at = ? WHERE namespace = ? AND account = ? AND owner = ?",
                    arguments: [expiry] + RecordCodec.arguments(account) + [owner])
            }
        }
    }

    /// Deletes the lease row if it is still ours, even when the calling task was cancelled.
    private func releaseLease(_ account: AccountKey, owner: String) async {
        let pool = pool
        await Task {
            _ = try? await pool.write { db in
                try db.execute(
                    sql: "DELETE FROM refresh_lease WHERE namespace = ? AND account = ? AND owner = ?",
                    arguments: RecordCodec.arguments(account) + [owner])
            }
        }.value
    }
}
