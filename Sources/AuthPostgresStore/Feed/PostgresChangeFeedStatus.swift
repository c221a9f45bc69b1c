// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// What a ``PostgresCredentialStore``'s change feed is doing now
/// (``PostgresCredentialStore/changeFeedStatus``).
///
/// Records are served from memory only while the feed is ``connected``: in every other state each
/// `get` reads the database, and subscribers to
/// ``PostgresCredentialStore/credentialChanges()`` get `CredentialChange.unknown` every
/// ``PostgresChangeFeedOptions/readThroughInterval`` (AuthCore's sessions then re-read their
/// credential), so a change made elsewhere is never hidden by a feed that does not deliver.
///
/// ```swift
/// let store = try await PostgresCredentialStore.open(configuration: .init(host: "pgbouncer.internal", port: 6432, username: "authkit", password: password, database: "auth", tls: .disable))
/// if store.changeFeedStatus == .notDelivering {
///     // Behind a pooler in transaction mode: correct, but every read goes to the database.
///     logger.notice("credential store: \(store.changeFeedStatus)")
/// }
/// ```
public struct PostgresChangeFeedStatus: Sendable, Hashable, CustomStringConvertible {
    private enum Code: Sendable, Hashable {
        case off, connecting, connected, lost, notDelivering
    }

    private let code: Code

    private init(_ code: Code) { self.code = code }

    /// The store was opened without a change feed (``PostgresStoreOptions/changeFeed`` nil).
    public static let off = PostgresChangeFeedStatus(.off)
    /// The feed is connecting, or has `LISTEN`ed and waits for its own probe notification to prove
    /// that notifications arrive.
    public static let connecting = PostgresChangeFeedStatus(.connecting)
    /// Notifications arrive: the feed's probe came back (and, since, every heartbeat).
    public static let connected = PostgresChangeFeedStatus(.connected)
    /// The listening connection was lost, or stopped delivering (a heartbeat did not come back);
    /// the feed connects again after ``PostgresChangeFeedOptions/retryInterval``.
    public static let lost = PostgresChangeFeedStatus(.lost)
    /// `LISTEN` succeeded but the feed's own probe notification never arrived: the connection
    /// goes through something that does not keep a session per connection, such as PgBouncer in
    /// transaction pooling mode. The store reads through; the feed probes again every
    /// ``PostgresChangeFeedOptions/reprobeInterval``. Use session pooling, or connect directly,
    /// to have the feed.
    public static let notDelivering = PostgresChangeFeedStatus(.notDelivering)

    /// What the state means for the store.
    public var description: String {
        switch code {
        case .off: "off: the store has no change feed; every read goes to the database"
        case .connecting: "connecting: reading through until the feed's probe notification arrives"
        case .connected: "connected: notifications arrive; records are served from memory"
        case .lost: "lost: the feed's connection was lost or stopped delivering; reading through until it is back"
        case .notDelivering:
            "not delivering: the change feed does not receive notifications (a connection pooler in transaction mode, such as PgBouncer?); reading through; use session pooling or connect directly to have the feed"
        }
    }
}
