// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// How a ``PostgresCredentialStore`` follows the changes other machines make (`LISTEN/NOTIFY`).
public struct PostgresChangeFeedOptions: Sendable {
    /// While the notification connection is lost, how often every session re-reads its credential
    /// from the database (and `get` reads through): once the loss is known (at once for a closed
    /// connection, within two ``heartbeatInterval``s for one that stopped delivering), the
    /// longest a credential replaced or signed out elsewhere is still used here, plus one read.
    public var readThroughInterval: Duration
    /// How long to wait before connecting the feed again after it was lost.
    public var retryInterval: Duration
    /// Whether `get` is served from memory while the feed is connected (records are forgotten as
    /// notifications about their account arrive).
    public var cachesRecords: Bool
    /// The most records kept in memory; past it the memory is cleared and filled again.
    public var maximumCachedRecords: Int
    /// How often the feed checks that notifications still arrive (it sends one to itself and
    /// expects it back within the same interval); a connection that stopped delivering without
    /// failing (a half-open socket after a partition or failover) is then treated as lost.
    public var heartbeatInterval: Duration
    /// How long the feed waits, after each `LISTEN`, for the probe notification it sends itself
    /// from another connection before it concludes that notifications do not reach it
    /// (``PostgresChangeFeedStatus/notDelivering``: a pooler in transaction mode, such as
    /// PgBouncer). Until the probe arrives nothing is served from memory.
    public var probeTimeout: Duration
    /// How often a feed whose probe did not arrive listens and probes again (a pooler switched to
    /// session mode, or the connection pointed at the server, gets the feed back).
    public var reprobeInterval: Duration

    /// Options; the defaults re-read every 5 s while the feed is lost, try it again every second,
    /// check it every 5 s, wait 2 s for the probe after each `LISTEN`, and probe again every
    /// minute when it did not arrive.
    public init(readThroughInterval: Duration = .seconds(5), retryInterval: Duration = .seconds(1), cachesRecords: Bool = true, maximumCachedRecords: Int = 10_000, heartbeatInterval: Duration = .seconds(5), probeTimeout: Duration = .seconds(2), reprobeInterval: Duration = .seconds(60)) {
        self.readThroughInterval = readThroughInterval
        self.retryInterval = retryInterval
        self.cachesRecords = cachesRecords
        self.maximumCachedRecords = maximumCachedRecords
        self.heartbeatInterval = heartbeatInterval
        self.probeTimeout = probeTimeout
        self.reprobeInterval = reprobeInterval
    }
}
