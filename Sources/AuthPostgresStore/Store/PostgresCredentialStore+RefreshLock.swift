public import AuthCore
import Logging
import PostgresNIO

extension PostgresCredentialStore: RefreshLocking {
    /// Runs `body` holding a transaction-scoped advisory lock for `account` on one leased
    /// connection: every machine's renewal of the account waits for it, and wakes as soon as it is
    /// released (no polling); the account's records are then read from the database, not from
    /// memory, so the previous holder's write is seen. A holder that dies (process killed, connection cut) releases it with
    /// its session: there is no lease to wait out.
    ///
    /// The wait is bounded by ``lockTimeout`` (PostgreSQL's `lock_timeout`, for this transaction
    /// only); then the store is `.unavailable` (never "signed out"). What `body` throws passes as
    /// it is: a renewal's own errors are not the store's.
    public func withRefreshLock<T: Sendable>(for account: AccountKey, _ body: @Sendable () async throws -> T) async throws -> T {
        let name = "authkit-refresh/\(account.namespace)/\(account.account)"
        let timeout = "\(max(1, Int(lockTimeout.components.seconds * 1_000 + lockTimeout.components.attoseconds / 1_000_000_000_000_000)))ms"
        var finished: Result<T, any Error>?
        do {
            try await client.withTransaction(logger: logger) { connection in
                // Rows drained: a query returns when its columns are described, before it has run.
                for try await _ in try await connection.query("SELECT set_config('lock_timeout', \(timeout), true)", logger: logger) {}
                for try await _ in try await connection.query("SELECT pg_advisory_xact_lock(hashtextextended(\(name), 0))", logger: logger) {}
                // What the previous holder wrote is committed, but its notification may not have
                // arrived: the renewal's re-read must come from the database, not from memory.
                feed?.forget(account)
                do {
                    finished = .success(try await body())
                } catch {
                    finished = .failure(error)
                }
            }
        } catch {
            // The body ran and only ending the transaction failed: the lock went with it.
            if let finished { return try finished.get() }
            if Self.sqlState(of: error) == "55P03" {
                throw CredentialStoreError.unavailable("another machine has held the refresh lock of \(account) for longer than \(lockTimeout)")
            }
            try await Self.unavailableOnFailure("taking the refresh lock of \(account)") { throw error }
        }
        guard let finished else { throw CredentialStoreError.unavailable("the refresh lock of \(account) was taken but the renewal did not run") }
        return try finished.get()
    }

    /// The SQLSTATE of a server error, also inside a transaction's error.
    static func sqlState(of error: any Error) -> String? {
        let server = (error as? PSQLError) ?? ((error as? PostgresTransactionError)?.closureError as? PSQLError)
        return server?.serverInfo?[.sqlState]
    }
}
