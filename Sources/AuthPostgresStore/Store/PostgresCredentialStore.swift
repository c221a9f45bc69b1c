// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
import Foundation
import Logging
public import PostgresNIO

/// A credential store on PostgreSQL, for a fleet of machines sharing one store: records keyed by
/// (namespace, account, item) as in the SQLite store, sealed by the vault's cipher when one is
/// configured, and renewal locked across machines (``withRefreshLock(for:_:)``).
///
/// Failures are typed by cause (`CredentialStoreError`), so that a caller retries only what may
/// pass:
/// - `.unavailable`: the database unreachable (connection refused or lost), a call or a lock not
///   done within ``PostgresStoreOptions/operationTimeout`` or ``PostgresStoreOptions/lockTimeout``,
///   the server shutting down or out of connections. Never "signed out".
/// - `.readOnly`: the server accepts no writes now (SQLSTATE 25006: a hot standby, a failover in
///   progress), or the store was opened ``PostgresStoreOptions/readOnly``.
/// - `.misconfigured`: authentication failed, a privilege, the database, the schema or a table
///   missing (a store opened by ``open(configuration:options:logger:)`` also tells a wrong password
///   apart from an outage while its pool cannot connect).
/// - `.invalidArgument`: a name over ``maximumNameBytes`` (refused before any query), a value or
///   an option the server or the store cannot take.
/// - `.incompatibleVersion`: the schema was migrated by newer code; `.corrupted`: a record that
///   cannot be read back.
///
/// No credential appears in an error: values go to the server as bound parameters, and errors
/// name the operation and the server's SQLSTATE, never the server's message (which may quote a
/// value).
///
/// ```swift
/// let store = try await PostgresCredentialStore.open(configuration: .init(host: "db.internal", username: "authkit", password: password, database: "auth", tls: .disable))
/// container.override(CredentialStoreKey.self, with: store)
/// ```
public final class PostgresCredentialStore: CredentialStore, Sendable {
    /// The connection pool.
    public let client: PostgresClient
    /// The options the store was opened with.
    public let options: PostgresStoreOptions
    /// How long a renewal waits for another machine's refresh lock before it reports the store
    /// unavailable (``PostgresStoreOptions/lockTimeout``).
    public var lockTimeout: Duration { options.lockTimeout }
    /// How long one read or write may take before it reports the store unavailable
    /// (``PostgresStoreOptions/operationTimeout``).
    public var operationTimeout: Duration { options.operationTimeout }
    let logger: Logger
    /// Where the tables live.
    let tables: PostgresTables
    private let runner: Task<Void, Never>?
    /// Why the pool last failed to connect, for a store made by `open`.
    let connectFailures: ConnectFailureLog?
    /// The change feed, when the store follows one.
    let feed: PostgresChangeFeed?

    /// A store over a client the caller runs (`client.run()` in a task of theirs); migrates the
    /// schema first (or, ``PostgresStoreOptions/readOnly``, checks it), then follows the change
    /// feed (one of the pool's connections) unless ``PostgresStoreOptions/changeFeed`` is nil.
    /// ``PostgresStoreOptions/poolSize`` does not apply: the client's configuration decides.
    /// - Throws: `CredentialStoreError`: `.invalidArgument` for options no store can honour, and
    ///   what opening meets (see ``open(configuration:options:logger:)``).
    public convenience init(client: PostgresClient, options: PostgresStoreOptions = .init(), logger: Logger = Logger(label: "AuthPostgresStore")) async throws {
        try options.validate()
        self.init(client: client, runner: nil, options: options, connectFailures: nil, logger: logger)
        try await start()
    }

    private init(client: PostgresClient, runner: Task<Void, Never>?, options: PostgresStoreOptions, connectFailures: ConnectFailureLog?, logger: Logger) {
        self.client = client
        self.runner = runner
        self.options = options
        self.connectFailures = connectFailures
        self.tables = PostgresTables(schema: options.schema)
        self.feed = options.changeFeed.map { PostgresChangeFeed(options: $0, channel: PostgresTables(schema: options.schema).channel, sendTimeout: options.operationTimeout) }
        self.logger = logger
    }

    /// A store with a pool of its own, run until ``close()``; migrates the schema first (or,
    /// ``PostgresStoreOptions/readOnly``, checks it), then follows the change feed (one of the
    /// pool's connections) unless ``PostgresStoreOptions/changeFeed`` is nil.
    ///
    /// - Parameters:
    ///   - configuration: Where the database is and how to connect
    ///     (``configuration(url:)`` reads a `postgres://` URL).
    ///   - options: Timeouts, change feed, pool size, schema, read-only.
    ///   - logger: Where the store logs (never a credential).
    /// - Throws: `CredentialStoreError`: `.invalidArgument` for options no store can honour;
    ///   `.misconfigured` when the server refuses the role (a wrong password, a missing privilege
    ///   or database) or, read-only, the schema holds no migrated store; `.incompatibleVersion`
    ///   when newer code migrated the schema; `.readOnly` when migrating on a server that accepts
    ///   no writes; `.unavailable` when the database does not answer within
    ///   ``PostgresStoreOptions/operationTimeout``.
    public static func open(configuration: PostgresClient.Configuration, options: PostgresStoreOptions = .init(), logger: Logger = Logger(label: "AuthPostgresStore")) async throws -> PostgresCredentialStore {
        try options.validate()
        var configuration = configuration
        if let poolSize = options.poolSize { configuration.options.maximumConnections = poolSize }
        let connectFailures = ConnectFailureLog()
        let client = PostgresClient(configuration: configuration, backgroundLogger: connectFailures.logger)
        let runner = Task { await client.run() }
        let store = PostgresCredentialStore(client: client, runner: runner, options: options, connectFailures: connectFailures, logger: logger)
        do {
            try await store.start()
        } catch {
            runner.cancel()  // not awaited: a pool still connecting to a server that does not answer would hold the error up
            throw error
        }
        return store
    }

    private func start() async throws {
        try await refusedAtOnce(options.readOnly ? "checking the schema" : "migrating the schema") { [self] in
            if options.readOnly {
                try await timed("checking the schema") { [self] in try await PostgresSchema.verify(client, tables: tables, logger: logger) }
            } else {
                try await timed("migrating the schema") { [self] in try await PostgresSchema.migrate(client, tables: tables, logger: logger) }
            }
        }
        feed?.start(client: client, logger: logger)
    }

    /// Runs `body`, but throws as soon as the pool's connection attempts are refused for a reason
    /// that will not pass (a wrong password, a missing database: `.misconfigured`), rather than at
    /// the operation timeout; checked every 100 ms. Only for a store made by `open`, whose pool's
    /// failures are known (``ConnectFailureLog``).
    private func refusedAtOnce(_ what: String, _ body: @escaping @Sendable () async throws -> Void) async throws {
        guard let connectFailures else { return try await body() }
        let started = ContinuousClock.now
        let timeout = operationTimeout
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await body() }
            group.addTask {
                while true {
                    try await Task.sleep(for: .milliseconds(100))
                    guard let failure = connectFailures.failure(since: started) else { continue }
                    let error = Self.storeError(timedOut: timeout, while: what, lastConnectFailure: failure)
                    if error.code == .misconfigured { throw error }
                }
            }
            defer { group.cancelAll() }
            try await group.next()
        }
    }

    /// Stops the change feed, and closes the pool of a store made by
    /// ``open(configuration:options:logger:)``.
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
        try Self.check(key)
        guard let feed else { return try await read(key) }
        if let cached = feed.cached(key) { return cached }
        let epoch = feed.epoch
        let envelope = try await read(key)
        feed.remember(envelope, at: key, since: epoch)
        return envelope
    }

    /// The record at `key`, read from the database.
    func read(_ key: CredentialKey) async throws -> Envelope? {
        try Self.check(key)
        return try await timed("reading \(key)") { [self] in
            let rows = try await client.query(
                "SELECT format_version, kind, payload, updated_at, expires_at FROM \(unescaped: tables.credentials) WHERE namespace = \(Self.bytes(key.namespace)) AND account = \(Self.bytes(key.account)) AND item = \(Self.bytes(key.item))",
                logger: logger)
            return try await Self.envelope(in: rows)
        }
    }

    public func put(_ envelope: Envelope, for key: CredentialKey) async throws {
        try Self.check(key)
        try refuseWritesWhenReadOnly("writing \(key)")
        defer { feed?.forget(key.accountKey) }  // even after a failure: the write may have committed
        try await writing("writing \(key)") { [tables] connection, logger in
            try await Self.run(Self.upsert(envelope, for: key, into: tables), on: connection, logger: logger)
        }
    }

    public func delete(_ key: CredentialKey) async throws {
        try Self.check(key)
        try refuseWritesWhenReadOnly("deleting \(key)")
        defer { feed?.forget(key.accountKey) }  // even after a failure: the write may have committed
        try await writing("deleting \(key)") { [tables] connection, logger in
            try await Self.run("DELETE FROM \(unescaped: tables.credentials) WHERE namespace = \(Self.bytes(key.namespace)) AND account = \(Self.bytes(key.account)) AND item = \(Self.bytes(key.item))", on: connection, logger: logger)
        }
    }

    public func items(of account: AccountKey) async throws -> [String] {
        try Self.check(account)
        return try await strings("listing the items of \(account)", "SELECT item FROM \(unescaped: tables.credentials) WHERE namespace = \(Self.bytes(account.namespace)) AND account = \(Self.bytes(account.account))")
    }

    public func accounts(in namespace: String) async throws -> [String] {
        try Self.check(namespace: namespace)
        return try await strings("listing the accounts of \(namespace)", "SELECT DISTINCT account FROM \(unescaped: tables.credentials) WHERE namespace = \(Self.bytes(namespace))")
    }

    public func namespaces() async throws -> [String] {
        try await strings("listing the namespaces", "SELECT DISTINCT namespace FROM \(unescaped: tables.credentials)")
    }

    public func deleteAccount(_ account: AccountKey) async throws {
        try Self.check(account)
        try refuseWritesWhenReadOnly("deleting \(account)")
        defer { feed?.forget(account) }  // even after a failure: the write may have committed
        try await writing("deleting \(account)") { [tables] connection, logger in
            try await Self.run("DELETE FROM \(unescaped: tables.credentials) WHERE namespace = \(Self.bytes(account.namespace)) AND account = \(Self.bytes(account.account))", on: connection, logger: logger)
        }
    }

    public func deleteAll() async throws {
        try refuseWritesWhenReadOnly("deleting every record")
        defer { feed?.forgetAll() }  // even after a failure: the write may have committed
        try await writing("deleting every record") { [tables] connection, logger in
            try await Self.run("DELETE FROM \(unescaped: tables.credentials)", on: connection, logger: logger)
        }
    }

    /// Compares and writes so that the database decides, atomically, which of concurrent callers
    /// wins, and a renewal on one machine cannot undo a sign-in or sign-out made on another
    /// meanwhile:
    /// - expecting no record, a write is one `INSERT … ON CONFLICT DO NOTHING`, done only if it
    ///   inserted the row (a `SELECT … FOR UPDATE` locks no row that does not exist yet, so it
    ///   cannot keep two callers that both read "no record" from both writing); one that waits
    ///   for another transaction's insert of the same key fails once that insert commits;
    /// - expecting no record, a removal only reads: it removes nothing, and succeeds when no
    ///   committed record is there;
    /// - expecting a record, the existing row is locked (`SELECT … FOR UPDATE`), compared, and
    ///   written or removed in the same transaction.
    public func replace(_ key: CredentialKey, ifCurrent expected: Envelope?, with envelope: Envelope?) async throws -> Bool {
        try Self.check(key)
        try refuseWritesWhenReadOnly("replacing \(key)")
        defer { feed?.forget(key.accountKey) }
        switch (expected, envelope) {
        case (nil, nil):
            return try await timed("replacing \(key)") { [self] in
                let rows = try await client.query(
                    "SELECT format_version, kind, payload, updated_at, expires_at FROM \(unescaped: tables.credentials) WHERE namespace = \(Self.bytes(key.namespace)) AND account = \(Self.bytes(key.account)) AND item = \(Self.bytes(key.item))",
                    logger: logger)
                return try await Self.envelope(in: rows) == nil
            }
        case (nil, let envelope?):
            return try await writing("replacing \(key)") { [tables] connection, logger in
                try await Self.hasRow(connection.query(Self.insertIfAbsent(envelope, for: key, into: tables), logger: logger))
            }
        case (let expected?, _):
            return try await writing("replacing \(key)") { [tables] connection, logger in
                let rows = try await connection.query(
                    "SELECT format_version, kind, payload, updated_at, expires_at FROM \(unescaped: tables.credentials) WHERE namespace = \(Self.bytes(key.namespace)) AND account = \(Self.bytes(key.account)) AND item = \(Self.bytes(key.item)) FOR UPDATE",
                    logger: logger)
                guard try await Self.envelope(in: rows) == expected else { return false }
                if let envelope {
                    try await Self.run(try Self.upsert(envelope, for: key, into: tables), on: connection, logger: logger)
                } else {
                    try await Self.run("DELETE FROM \(unescaped: tables.credentials) WHERE namespace = \(Self.bytes(key.namespace)) AND account = \(Self.bytes(key.account)) AND item = \(Self.bytes(key.item))", on: connection, logger: logger)
                }
                return true
            }
        }
    }

    /// Runs `body`, a write, in a transaction that cannot outlive the caller's wait:
    /// - the server itself ends it at ``operationTimeout`` (its `lock_timeout`, `statement_timeout`
    ///   and `idle_in_transaction_session_timeout`, for this transaction only), so a row another
    ///   transaction holds does not keep a connection of the pool waiting, and a writer of this
    ///   store that froze mid-transaction does not keep its rows locked;
    /// - at the deadline of ``timed(_:_:)`` (or when the caller is cancelled) the connection is
    ///   closed and the transaction is not committed: a write the caller was told failed does
    ///   not land later, when the lock it waited for is released. Only a `COMMIT` already sent
    ///   when the deadline passes may still land, as with any database.
    func writing<T: Sendable>(_ what: String, _ body: @escaping @Sendable (PostgresConnection, Logger) async throws -> T) async throws -> T {
        let limit = "\(max(1, operationTimeout.milliseconds))ms"
        return try await timed(what) { [client, logger] in
            try await client.withTransaction(logger: logger) { connection in
                try await withTaskCancellationHandler {
                    try await Self.run("SELECT set_config('lock_timeout', \(limit), true), set_config('statement_timeout', \(limit), true), set_config('idle_in_transaction_session_timeout', \(limit), true)", on: connection, logger: logger)
                    let result = try await body(connection, logger)
                    try Task.checkCancellation()  // past the deadline: rolled back, not committed
                    return result
                } onCancel: {
                    _ = connection.close() as EventLoopFuture<Void>  // not awaited: the caller is not held up
                }
            }
        }
    }

    /// Runs `query` on `connection` to its end (its rows drained: a query returns when its
    /// columns are described, before it has run).
    static func run(_ query: PostgresQuery, on connection: PostgresConnection, logger: Logger) async throws {
        for try await _ in try await connection.query(query, logger: logger) {}
    }

    private func strings(_ what: String, _ query: PostgresQuery) async throws -> [String] {
        try await timed(what) { [self] in
            var values: [String] = []
            for try await value in try await client.query(query, logger: logger).decode(Data.self) { values.append(String(decoding: value, as: UTF8.self)) }
            return values.sorted()
        }
    }

    /// ``classifyingFailures(_:_:)`` within ``operationTimeout``: at the deadline the caller gets
    /// `.unavailable` at once (or `.misconfigured`, when the pool's last connection attempt was
    /// refused for a reason that will not pass), whether or not the operation ends when cancelled
    /// (a query on a connection that stopped answering may not; it is left to end by itself).
    func timed<T: Sendable>(_ what: String, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let timeout = operationTimeout
        let started = ContinuousClock.now
        let connectFailures = connectFailures
        return try await Self.classifyingFailures(what) {
            try await Deadline.run(within: timeout, body) {
                Self.storeError(timedOut: timeout, while: what, lastConnectFailure: connectFailures?.failure(since: started))
            }
        }
    }

    /// Throws `.readOnly` for a write to a store opened ``PostgresStoreOptions/readOnly``.
    func refuseWritesWhenReadOnly(_ what: String) throws {
        guard options.readOnly else { return }
        throw CredentialStoreError.readOnly("the PostgreSQL store was opened read-only (PostgresStoreOptions.readOnly) and refuses \(what)")
    }

    /// The statement that writes `envelope` at `key`, replacing what is there.
    static func upsert(_ envelope: Envelope, for key: CredentialKey, into tables: PostgresTables) throws -> PostgresQuery {
        try """
        INSERT INTO \(unescaped: tables.credentials) (namespace, account, item, format_version, kind, payload, updated_at, expires_at)
        VALUES (\(bytes(key.namespace)), \(bytes(key.account)), \(bytes(key.item)), \(envelope.formatVersion), \(envelope.kind), \(envelope.payload), \(envelope.updatedAt.timeIntervalSince1970), \(envelope.expiresAt?.timeIntervalSince1970))
        ON CONFLICT (namespace, account, item) DO UPDATE SET format_version = EXCLUDED.format_version, kind = EXCLUDED.kind,
            payload = EXCLUDED.payload, updated_at = EXCLUDED.updated_at, expires_at = EXCLUDED.expires_at
        """
    }

    /// The statement that writes `envelope` at `key` only if no record is there (a record that
    /// another transaction is inserting is waited for), and returns one row if it wrote.
    static func insertIfAbsent(_ envelope: Envelope, for key: CredentialKey, into tables: PostgresTables) throws -> PostgresQuery {
        try """
        INSERT INTO \(unescaped: tables.credentials) (namespace, account, item, format_version, kind, payload, updated_at, expires_at)
        VALUES (\(bytes(key.namespace)), \(bytes(key.account)), \(bytes(key.item)), \(envelope.formatVersion), \(envelope.kind), \(envelope.payload), \(envelope.updatedAt.timeIntervalSince1970), \(envelope.expiresAt?.timeIntervalSince1970))
        ON CONFLICT (namespace, account, item) DO NOTHING
        RETURNING 1
        """
    }

    /// Whether `rows` holds at least one row (read to its end).
    static func hasRow(_ rows: PostgresRowSequence) async throws -> Bool {
        var found = false
        for try await _ in rows { found = true }
        return found
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
}
