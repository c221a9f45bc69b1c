// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
import Foundation
import Logging
import PostgresNIO
import Synchronization

extension PostgresCredentialStore: RefreshLocking {
    /// Runs `body` holding a transaction-scoped advisory lock for `account` on one leased
    /// connection: every machine's renewal of the account waits for it, and wakes as soon as it is
    /// released (no polling); the account's records are then read from the database, not from
    /// memory, so the previous holder's write is seen. A holder whose process dies or whose
    /// connection closes releases it with its session: there is no lease to wait out. (A holder cut
    /// off by a network partition keeps it until the server notices the dead connection: set the
    /// server's `tcp_keepalives_*` or `client_connection_check_interval` for that case.)
    ///
    /// Every wait is bounded, also when the server stops answering (a network cut): for a
    /// connection and for each statement of the transaction (`BEGIN`, its settings) by
    /// ``operationTimeout``, for `COMMIT` or `ROLLBACK` by two seconds at most (the transaction
    /// holds nothing but the lock; a connection the server ended, by a restart or
    /// `pg_terminate_backend`, does not answer them, and every renewal of the account would wait
    /// out the operation timeout behind it), for the lock by ``lockTimeout`` (PostgreSQL's
    /// `lock_timeout`, for this transaction only) and, should the server not answer, by
    /// ``lockTimeout`` plus ``operationTimeout`` on this side. A statement that does not end in
    /// time closes its connection (the lock, if held, ends with the session); before `body` the
    /// store is then `.unavailable` (never "signed out"). `body` itself is not cut short: it is
    /// the renewal, with deadlines of its own. A `COMMIT` that fails or does not answer after it
    /// is logged, and `body`'s result returned: the lock only spares waiting, and what `body`
    /// wrote went through the pool. The transaction is exempt from the server's
    /// `idle_in_transaction_session_timeout` while `body` runs. What `body` throws passes as it
    /// is: a renewal's own errors are not the store's.
    ///
    /// A store opened ``PostgresStoreOptions/readOnly`` throws `.readOnly` at once: a renewal
    /// could not store what it obtained.
    public func withRefreshLock<T: Sendable>(for account: AccountKey, _ body: @Sendable () async throws -> T) async throws -> T {
        try Self.check(account)
        try refuseWritesWhenReadOnly("renewing \(account)")
        // The names as bytes, each ended by NUL (which no text can hold): any name works, and no
        // two accounts share a lock.
        let name = Data("authkit-refresh".utf8 + [0] + account.namespace.utf8 + [0] + account.account.utf8)
        let timeout = "\(max(1, lockTimeout.milliseconds))ms"
        let leaseLimit = operationTimeout
        let leased = LeaseFlag()
        let started = ContinuousClock.now
        let connectFailures = connectFailures
        let outcome: Result<T, any Error>
        do {
            outcome = try await withoutActuallyEscaping(body) { body in
                try await withThrowingTaskGroup(of: Result<T, any Error>?.self) { group in
                    group.addTask { [self] in
                        try await client.withConnection { connection in
                            leased.value.store(true, ordering: .relaxed)
                            return try await locked(connection, name: name, timeout: timeout, account: account, body)
                        }
                    }
                    group.addTask {
                        try await Task.sleep(for: leaseLimit)
                        guard leased.value.load(ordering: .relaxed) else {
                            throw Self.storeError(timedOut: leaseLimit, while: "taking the refresh lock of \(account) (no connection)", lastConnectFailure: connectFailures?.failure(since: started))
                        }
                        return nil
                    }
                    defer { group.cancelAll() }
                    while let next = try await group.next() {
                        if let outcome = next { return outcome }
                    }
                    throw CredentialStoreError.unavailable("the refresh lock of \(account) was not taken")
                }
            }
        } catch let error as CredentialStoreError {
            throw error
        } catch where Self.sqlState(of: error) == "55P03" {
            throw CredentialStoreError.unavailable("another machine has held the refresh lock of \(account) for longer than \(lockTimeout)")
        } catch {
            throw Self.storeError(for: error, while: "taking the refresh lock of \(account)")
        }
        return try outcome.get()  // the body's own error passes as it is
    }

    /// The transaction on `connection`: the lock, then `body`, then the commit. A failure of the
    /// body comes back as the result; a failure of the lock is thrown, after the transaction was
    /// rolled back or the connection closed (a pooled connection never goes back inside a
    /// transaction or holding the lock). Each statement is bounded (``statement(_:on:within:)``).
    private func locked<T: Sendable>(_ connection: PostgresConnection, name: Data, timeout: String, account: AccountKey, _ body: @Sendable () async throws -> T) async throws -> Result<T, any Error> {
        do {
            try await statement("BEGIN", on: connection, within: operationTimeout)
            try await statement("SELECT set_config('lock_timeout', \(timeout), true), set_config('idle_in_transaction_session_timeout', '0', true)", on: connection, within: operationTimeout)
            try await statement("SELECT pg_advisory_xact_lock(hashtextextended(encode(\(name), 'hex'), 0))", on: connection, within: lockTimeout + operationTimeout)
        } catch {
            await end(connection, "ROLLBACK")
            throw error
        }
        // What the previous holder wrote is committed, but its notification may not have
        // arrived: the renewal's re-read must come from the database, not from memory.
        feed?.forget(account)
        let result: Result<T, any Error>
        do {
            result = .success(try await body())
        } catch {
            result = .failure(error)
        }
        if await !end(connection, "COMMIT"), case .success = result {
            logger.warning("the refresh lock's transaction did not commit; the lock was released with its connection", metadata: ["account": "\(account)"])
        }
        return result
    }

    /// Runs `query` on `connection` to its end (rows drained: a query returns when its columns are
    /// described, before it has run), within `timeout`; past it, closes the connection and throws
    /// `.unavailable`. A connection already closed (a statement that timed out before) fails at once.
    private func statement(_ query: PostgresQuery, on connection: PostgresConnection, within timeout: Duration) async throws {
        let logger = logger
        do {
            try await Deadline.run(within: timeout, {
                for try await _ in try await connection.query(query, logger: logger) {}
            }, expired: {
                CredentialStoreError.unavailable("the PostgreSQL store did not answer within \(timeout) while taking or releasing a refresh lock")
            })
        } catch let error as CredentialStoreError {
            try? await connection.close()
            throw error
        }
    }

    /// How long `COMMIT` or `ROLLBACK` of the lock's transaction may take: it holds only the lock,
    /// so a server that answers at all answers at once.
    var transactionEndLimit: Duration { min(operationTimeout, .seconds(2)) }

    /// Ends the transaction, within ``transactionEndLimit``; when that fails, closes the
    /// connection (its session, and the lock, end with it). Returns whether the statement
    /// succeeded.
    @discardableResult
    private func end(_ connection: PostgresConnection, _ query: PostgresQuery) async -> Bool {
        do {
            try await statement(query, on: connection, within: transactionEndLimit)
            return true
        } catch {
            try? await connection.close()
            return false
        }
    }
}

/// Whether the refresh lock's connection was leased (then only the lock's own timeout applies).
final class LeaseFlag: Sendable {
    let value = Atomic<Bool>(false)
}
