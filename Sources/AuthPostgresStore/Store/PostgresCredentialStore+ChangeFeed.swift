// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore

extension PostgresCredentialStore: CredentialChangeFeed {
    /// The accounts other machines (and this one) change, as PostgreSQL notifies them; `.unknown`
    /// while the feed is lost (every ``PostgresChangeFeedOptions/readThroughInterval``) and when it
    /// is back. A store opened without a change feed reports nothing.
    public func credentialChanges() -> AsyncStream<CredentialChange> {
        guard let feed else { return AsyncStream { $0.finish() } }
        return feed.subscribe()
    }

    /// Whether the change feed is connected (notifications arrive, `get` is served from memory);
    /// ``changeFeedStatus`` says why not.
    public var isChangeFeedConnected: Bool { feed?.isConnected ?? false }

    /// What the change feed is doing: ``PostgresChangeFeedStatus/connected`` once its probe
    /// notification came back, ``PostgresChangeFeedStatus/notDelivering`` when notifications do
    /// not reach it (a pooler in transaction mode: the store then reads through),
    /// ``PostgresChangeFeedStatus/off`` for a store opened without one.
    public var changeFeedStatus: PostgresChangeFeedStatus { feed?.status ?? .off }
}
