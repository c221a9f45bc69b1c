// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// Counters of a ``ResponseCache`` since it was created, for dashboards and tests.
public struct ResponseCacheStatistics: Sendable, Equatable, CustomStringConvertible {
    /// Requests answered from a fresh entry without contacting the server.
    public var hits = 0
    /// Requests for which no usable entry existed.
    public var misses = 0
    /// Revalidations that the server answered `304 Not Modified` (the body came from the cache).
    public var revalidations = 0
    /// Stale entries served because the server failed (stale-if-error).
    public var staleServed = 0
    /// Responses written into the cache (new or replacing an entry).
    public var stores = 0
    /// Entries removed to stay within the entry or byte limit.
    public var evictions = 0
    /// Entries removed by ``ResponseCache/purge(account:)``.
    public var purged = 0
    /// Entries held now.
    public var entryCount = 0
    /// Bytes held now, as the byte limit counts them.
    public var byteCount = 0

    /// Creates zeroed counters.
    public init() {}

    /// The counters on one line.
    public var description: String {
        "hits \(hits), misses \(misses), revalidations \(revalidations), staleServed \(staleServed), stores \(stores), evictions \(evictions), purged \(purged), entries \(entryCount), bytes \(byteCount)"
    }
}
