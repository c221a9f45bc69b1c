// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// What changed in a store, as its change feed reports it.
public enum CredentialChange: Sendable, Hashable {
    /// A record of this account was written or removed (by this process or any other sharing the
    /// store).
    case account(AccountKey)
    /// Changes may have been missed (the feed was lost, or it is back after a loss): anything may
    /// have changed.
    case unknown
}

/// A store capability: it tells its users when records change, including changes made by other
/// processes or machines sharing it, so that a process can serve credentials from memory and
/// still stop using one that was replaced or signed out elsewhere as soon as the change reaches
/// it (the notification's latency), or within the store's read-through bound while its
/// notifications cannot arrive.
///
/// ``SessionRegistry`` subscribes when its vault's store has this capability: on a change it
/// has every session of the account re-read the store (``CredentialChange/unknown``: every
/// session). A session that cannot read keeps what it has (the store being unreachable is not a
/// sign-out).
///
/// ## Implementing
/// Report every change after it is durable, so that a read made on receiving it sees it. When the
/// store cannot know what changed (its notification channel is lost), report `.unknown` at once
/// and then at a bounded interval until it knows again (the read-through bound), and once more
/// when it is back.
public protocol CredentialChangeFeed: Sendable {
    /// A new subscription to the store's changes; it ends when the iterating task is cancelled
    /// or the store is closed.
    func credentialChanges() -> AsyncStream<CredentialChange>
}
