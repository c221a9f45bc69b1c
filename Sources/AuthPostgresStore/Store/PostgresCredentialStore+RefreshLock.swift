public import AuthCore
import Logging
import PostgresNIO

extension PostgresCredentialStore: RefreshLocking {
    /// Runs `body` holding a session-level advisory lock for `account` on one leased connection:
    /// every machine's renewal of the account waits for it. A holder that dies (process killed,
    /// connection cut) releases it with its session: there is no lease to wait out.
    ///
    /// The lock is tried every 50 ms up to ``lockTimeout``; then the store is `.unavailable`
    /// (never "signed out").
    public func withRefreshLock<T: Sendable>(for account: AccountKey, _ body: @Sendable () async throws -> T) async throws -> T {
        let name = "authkit-refresh/\(account.namespace)/\(account.account)"
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: lockTimeout)
        return try await Self.unavailableOnFailure("taking the refresh lock of \(account)") {
            try await client.withConnection { connection in
                while true {
                    var locked = false
                    for try await value in try await connection.query("SELECT pg_try_advisory_lock(hashtextextended(\(name), 0))", logger: logger).decode(Bool.self) {
                        locked = value
                    }
                    if locked { break }
                    guard clock.now < deadline else {
                        throw CredentialStoreError.unavailable("another machine has held the refresh lock of \(account) for longer than \(lockTimeout)")
                    }
                    try await Task.sleep(for: .milliseconds(50))
                }
                do {
                    let result = try await body()
                    try await connection.query("SELECT pg_advisory_unlock(hashtextextended(\(name), 0))", logger: logger)
                    return result
                } catch {
                    try? await connection.query("SELECT pg_advisory_unlock(hashtextextended(\(name), 0))", logger: logger)
                    throw error
                }
            }
        }
    }
}
