public import AuthCore
import Foundation
import Logging
public import PostgresNIO

/// A credential store on PostgreSQL, for a fleet of machines sharing one store: records keyed by
/// (namespace, account, item) as in the SQLite store, sealed by the vault's cipher when one is
/// configured, and renewal locked across machines (``withRefreshLock(for:_:)``).
///
/// Failures are typed as for the other stores: the database unreachable, a lock that cannot be
/// had in time, any error of the server is `CredentialStoreError.unavailable` (never "signed
/// out"); a record that cannot be read back is `.corrupted`. No credential appears in an error:
/// values go to the server as bound parameters and errors name only what failed.
///
/// ```swift
/// let store = try await PostgresCredentialStore.open(configuration: .init(host: "db.internal", username: "authkit", password: password, database: "auth", tls: .disable))
/// container.override(CredentialStoreKey.self, with: store)
/// ```
public final class PostgresCredentialStore: CredentialStore, Sendable {
    /// The connection pool.
    public let client: PostgresClient
    /// How long a renewal waits for another machine's refresh lock before it reports the store
    /// unavailable.
    public let lockTimeout: Duration
    /// How long one read or write may take (the database unreachable: the pool waits for a
    /// connection it cannot make) before it reports the store unavailable.
    public let operationTimeout: Duration
    let logger: Logger
    private let runner: Task<Void, Never>?
    /// The change feed, when the store follows one.
    let feed: PostgresChangeFeed?

    /// A store over a client the caller runs (`client.run()` in a task of theirs); migrates the
    /// schema first, then follows the change feed (one of the pool's connections) unless
    /// `changeFeed` is nil.
    public convenience init(client: PostgresClient, lockTimeout: Duration = .seconds(30), operationTimeout: Duration = .seconds(10), changeFeed: PostgresChangeFeedOptions? = .init(), logger: Logger = Logger(label: "AuthPostgresStore")) async throws {
        self.init(client: client, runner: nil, lockTimeout: lockTimeout, operationTimeout: operationTimeout, changeFeed: changeFeed, logger: logger)
        try await start()
    }

    private init(client: PostgresClient, runner: Task<Void, Never>?, lockTimeout: Duration, operationTimeout: Duration, changeFeed: PostgresChangeFeedOptions?, logger: Logger) {
        self.client = client
        self.runner = runner
        self.lockTimeout = lockTimeout
        self.operationTimeout = operationTimeout
        self.feed = changeFeed.map(PostgresChangeFeed.init(options:))
        self.logger = logger
    }

    /// A store with a pool of its own, run until ``close()``; migrates the schema first, then
    /// follows the change feed (one of the pool's connections) unless `changeFeed` is nil.
    public static func open(configuration: PostgresClient.Configuration, lockTimeout: Duration = .seconds(30), operationTimeout: Duration = .seconds(10), changeFeed: PostgresChangeFeedOptions? = .init(), logger: Logger = Logger(label: "AuthPostgresStore")) async throws -> PostgresCredentialStore {
        let client = PostgresClient(configuration: configuration)
        let runner = Task { await client.run() }
        let store = PostgresCredentialStore(client: client, runner: runner, lockTimeout: lockTimeout, operationTimeout: operationTimeout, changeFeed: changeFeed, logger: logger)
        do {
            try await store.start()
        } catch {
            runner.cancel()
            throw error
        }
        return store
    }

    private func start() async throws {
        try await Self.unavailableOnFailure("migrating the schema") { try await PostgresSchema.migrate(client, logger: logger) }
        feed?.start(client: client, logger: logger)
    }

    /// Stops the change feed, and closes the pool of a store made by
    /// ``open(configuration:lockTimeout:operationTimeout:changeFeed:logger:)``.
    public func close() async {
        feed?.stop()
        runner?.cancel()
        await runner?.value
    }

    deinit {
        feed?.stop()
        runner?.cancel()
    }

    /// The record at `key`: from memory while the change feed vouches that it has not changed
    /// since it was read, else from the database.
    public func get(_ key: CredentialKey) async throws -> Envelope? {
        guard let feed else { return try await read(key) }
        if let cached = feed.cached(key) { return cached }
        let epoch = feed.epoch
        let envelope = try await read(key)
        feed.remember(envelope, at: key, since: epoch)
        return envelope
    }

    /// The record at `key`, read from the database.
    func read(_ key: CredentialKey) async throws -> Envelope? {
        try await timed("reading \(key)") { [self] in
            let rows = try await client.query(
                "SELECT format_version, kind, payload, updated_at, expires_at FROM authkit_credentials WHERE namespace = \(Self.bytes(key.namespace)) AND account = \(Self.bytes(key.account)) AND item = \(Self.bytes(key.item))",
                logger: logger)
            return try await Self.envelope(in: rows)
        }
    }

    public func put(_ envelope: Envelope, for key: CredentialKey) async throws {
        defer { feed?.forget(key.accountKey) }  // even after a failure: the write may have committed
        _ = try await timed("writing \(key)") { [self] in
            try await client.query(try Self.upsert(envelope, for: key), logger: logger)
        }
    }

    public func delete(_ key: CredentialKey) async throws {
        defer { feed?.forget(key.accountKey) }  // even after a failure: the write may have committed
        _ = try await timed("deleting \(key)") { [self] in
            try await client.query("DELETE FROM authkit_credentials WHERE namespace = \(Self.bytes(key.namespace)) AND account = \(Self.bytes(key.account)) AND item = \(Self.bytes(key.item))", logger: logger)
        }
    }

    public func items(of account: AccountKey) async throws -> [String] {
        try await strings("listing the items of \(account)", "SELECT item FROM authkit_credentials WHERE namespace = \(Self.bytes(account.namespace)) AND account = \(Self.bytes(account.account))")
    }

    public func accounts(in namespace: String) async throws -> [String] {
        try await strings("listing the accounts of \(namespace)", "SELECT DISTINCT account FROM authkit_credentials WHERE namespace = \(Self.bytes(namespace))")
    }

    public func namespaces() async throws -> [String] {
        try await strings("listing the namespaces", "SELECT DISTINCT namespace FROM authkit_credentials")
    }

    public func deleteAccount(_ account: AccountKey) async throws {
        defer { feed?.forget(account) }  // even after a failure: the write may have committed
        _ = try await timed("deleting \(account)") { [self] in
            try await client.query("DELETE FROM authkit_credentials WHERE namespace = \(Self.bytes(account.namespace)) AND account = \(Self.bytes(account.account))", logger: logger)
        }
    }

    public func deleteAll() async throws {
        defer { feed?.forgetAll() }  // even after a failure: the write may have committed
        _ = try await timed("deleting every record") { [self] in
            try await client.query("DELETE FROM authkit_credentials", logger: logger)
        }
    }

    /// Compares and writes in one transaction, the row locked (`SELECT … FOR UPDATE`), so that a
    /// renewal on one machine cannot undo a sign-in or sign-out made on another meanwhile.
    public func replace(_ key: CredentialKey, ifCurrent expected: Envelope?, with envelope: Envelope?) async throws -> Bool {
        defer { feed?.forget(key.accountKey) }
        return try await timed("replacing \(key)") { [self] in
            try await client.withTransaction(logger: logger) { connection in
                let rows = try await connection.query(
                    "SELECT format_version, kind, payload, updated_at, expires_at FROM authkit_credentials WHERE namespace = \(Self.bytes(key.namespace)) AND account = \(Self.bytes(key.account)) AND item = \(Self.bytes(key.item)) FOR UPDATE",
                    logger: logger)
                guard try await Self.envelope(in: rows) == expected else { return false }
                if let envelope {
                    try await connection.query(try Self.upsert(envelope, for: key), logger: logger)
                } else {
                    try await connection.query("DELETE FROM authkit_credentials WHERE namespace = \(Self.bytes(key.namespace)) AND account = \(Self.bytes(key.account)) AND item = \(Self.bytes(key.item))", logger: logger)
                }
                return true
            }
        }
    }

    private func strings(_ what: String, _ query: PostgresQuery) async throws -> [String] {
        try await timed(what) { [self] in
            var values: [String] = []
            for try await value in try await client.query(query, logger: logger).decode(Data.self) { values.append(String(decoding: value, as: UTF8.self)) }
            return values.sorted()
        }
    }

    /// ``unavailableOnFailure(_:_:)`` within ``operationTimeout``: at the deadline the caller gets
    /// `.unavailable` at once, whether or not the operation ends when cancelled (a query on a
    /// connection that stopped answering may not; it is left to end by itself).
    func timed<T: Sendable>(_ what: String, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let timeout = operationTimeout
        return try await Self.unavailableOnFailure(what) {
            try await Deadline.run(within: timeout, body) {
                CredentialStoreError.unavailable("the PostgreSQL store did not answer within \(timeout) while \(what)")
            }
        }
    }

    /// The statement that writes `envelope` at `key`, replacing what is there.
    static func upsert(_ envelope: Envelope, for key: CredentialKey) throws -> PostgresQuery {
        try """
        INSERT INTO authkit_credentials (namespace, account, item, format_version, kind, payload, updated_at, expires_at)
        VALUES (\(bytes(key.namespace)), \(bytes(key.account)), \(bytes(key.item)), \(envelope.formatVersion), \(envelope.kind), \(envelope.payload), \(envelope.updatedAt.timeIntervalSince1970), \(envelope.expiresAt?.timeIntervalSince1970))
        ON CONFLICT (namespace, account, item) DO UPDATE SET format_version = EXCLUDED.format_version, kind = EXCLUDED.kind,
            payload = EXCLUDED.payload, updated_at = EXCLUDED.updated_at, expires_at = EXCLUDED.expires_at
        """
    }

    /// The envelope of the first row of `rows` (format_version, kind, payload, updated_at,
    /// expires_at), nil when there is none.
    static func envelope(in rows: PostgresRowSequence) async throws -> Envelope? {
        for try await (version, kind, payload, updated, expires) in rows.decode((Int, String, Data, Double, Double?).self) {
            return Envelope(formatVersion: version, kind: kind, payload: payload, updatedAt: Date(timeIntervalSince1970: updated), expiresAt: expires.map(Date.init(timeIntervalSince1970:)))
        }
        return nil
    }

    /// A name as the bytes it is kept as.
    static func bytes(_ name: String) -> Data { Data(name.utf8) }

    /// Runs `body`, turning what the database or the network throws into `.unavailable` (a
    /// `CredentialStoreError` passes as it is). The message names the operation and the server's
    /// SQLSTATE, never a value.
    static func unavailableOnFailure<T>(_ what: String, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as CredentialStoreError {
            throw error
        } catch let error as PostgresTransactionError {
            if let inner = error.closureError as? CredentialStoreError { throw inner }
            if error.closureError is CancellationError { throw CancellationError() }
            let state = sqlState(of: error).map { " (SQLSTATE \($0))" } ?? ""
            throw CredentialStoreError.unavailable("the PostgreSQL store failed while \(what): the transaction did not complete\(state)", underlying: nil)
        } catch let error as PSQLError {
            let state = sqlState(of: error).map { " (SQLSTATE \($0))" } ?? ""
            throw CredentialStoreError.unavailable("the PostgreSQL store failed while \(what): \(error.code)\(state)", underlying: nil)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw CredentialStoreError.unavailable("the PostgreSQL store failed while \(what): \(type(of: error))", underlying: nil)
        }
    }
}
