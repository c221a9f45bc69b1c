// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
import Foundation
import HTTPTypes
import Synchronization

/// The store behind ``CacheMiddleware``: responses of every account, partitioned by account,
/// within an entry and a byte limit, least recently used evicted first.
///
/// One cache is shared by the clients of all accounts; each account's ``CacheMiddleware``
/// reads and writes only that account's entries. Entries never leave memory, and cached bodies
/// (which may be private) are never logged. ``observe(_:onPurge:)`` forgets an account when it
/// signs out or must sign in again; `AuthContainer.useResponseCache(_:)` sets all of it up.
///
/// ```swift
/// let cache = ResponseCache(configuration: .init(maxBytes: 8 << 20))
/// cache.observe(container[AuthEventsKey.self])
/// let middleware = CacheMiddleware(cache: cache, account: alice)
/// ```
public final class ResponseCache: Sendable {
    struct State {
        var entries = LRUStorage<CacheEntryKey, CachedResponse>()
        var stores = 0
        var evictions = 0
        var purged = 0
        /// Raised by every purge of an account and every invalidation of one of its URLs, so a
        /// request that began before either does not store its response after it.
        var generations: [AccountKey: Int] = [:]
        var epoch = 0
    }

    /// A request's view of the cache generation, taken when it starts.
    struct Ticket: Equatable {
        let generation: Int
        let epoch: Int
    }

    /// The limits and defaults.
    public let configuration: ResponseCacheConfiguration
    private let state = Mutex(State())
    private let hits = Atomic<Int>(0)
    private let misses = Atomic<Int>(0)
    private let revalidations = Atomic<Int>(0)
    private let staleServed = Atomic<Int>(0)
    let listeners = Mutex<[Task<Void, Never>]>([])

    /// Creates an empty cache.
    public init(configuration: ResponseCacheConfiguration = .init()) {
        self.configuration = configuration
    }

    deinit {
        for listener in listeners.withLock({ $0 }) { listener.cancel() }
    }

    /// Removes every entry of `account`, and keeps requests of that account that are in flight
    /// from storing their responses.
    /// - Returns: The number of entries removed.
    @discardableResult
    public func purge(account: AccountKey) -> Int {
        state.withLock { state in
            state.generations[account, default: 0] += 1
            let removed = state.entries.removeAll { $0.account == account }
            state.purged += removed
            return removed
        }
    }

    /// Removes every entry of every account.
    public func removeAll() {
        state.withLock { state in
            state.epoch += 1
            state.purged += state.entries.count
            state.entries.removeAll()
        }
    }

    /// The number of entries `account` has.
    public func entryCount(for account: AccountKey) -> Int {
        state.withLock { state in state.entries.count(where: { $0.account == account }) }
    }

    /// The counters since the cache was created.
    public var statistics: ResponseCacheStatistics {
        var statistics = ResponseCacheStatistics()
        state.withLock { state in
            statistics.stores = state.stores
            statistics.evictions = state.evictions
            statistics.purged = state.purged
            statistics.entryCount = state.entries.count
            statistics.byteCount = state.entries.totalCost
        }
        statistics.hits = hits.load(ordering: .relaxed)
        statistics.misses = misses.load(ordering: .relaxed)
        statistics.revalidations = revalidations.load(ordering: .relaxed)
        statistics.staleServed = staleServed.load(ordering: .relaxed)
        return statistics
    }

    /// The paths of `account`'s entries from the least to the most recently used (for tests
    /// and diagnostics: paths may hold identifiers, so do not log them carelessly).
    public func paths(for account: AccountKey) -> [String] {
        state.withLock { state in state.entries.keysOldestFirst.filter { $0.account == account }.map(\.path) }
    }

    // MARK: - Used by CacheMiddleware

    /// The entry for `key` if its variant matches `request`, marked as recently used, and the
    /// ticket to hand back to ``store(_:for:ticket:)`` for what this request fetches.
    func lookup(_ key: CacheEntryKey, request: HTTPRequest) -> (entry: CachedResponse?, ticket: Ticket) {
        let (entry, ticket) = state.withLock { state in
            (state.entries.get(key), Ticket(generation: state.generations[key.account] ?? 0, epoch: state.epoch))
        }
        guard let entry, entry.matches(request) else { return (nil, ticket) }
        return (entry, ticket)
    }

    /// Stores `entry`, evicting the least recently used entries to stay within the limits.
    /// Does nothing when the entry is larger than `maxEntryBytes` or the account was purged
    /// after `ticket` was taken.
    /// - Returns: Whether the entry was stored.
    @discardableResult
    func store(_ entry: CachedResponse, for key: CacheEntryKey, ticket: Ticket) -> Bool {
        let cost = entry.byteCount + key.byteCount
        return state.withLock { state in
            guard ticket == Ticket(generation: state.generations[key.account] ?? 0, epoch: state.epoch) else { return false }
            guard cost <= configuration.maxEntryBytes, cost <= configuration.maxBytes, configuration.maxEntries > 0 else {
                state.entries.remove(key)
                return false
            }
            state.entries.set(key, entry, cost: cost)
            state.stores += 1
            while state.entries.count > configuration.maxEntries || state.entries.totalCost > configuration.maxBytes {
                guard state.entries.removeOldest() != nil else { break }
                state.evictions += 1
            }
            return true
        }
    }

    /// Removes the GET and HEAD entries of `key`'s URL after a write to it succeeded (RFC 9111
    /// §4.4), and keeps the account's requests in flight from storing what they fetch: a GET sent
    /// before the write may be answered with the resource as it was, and stored after the
    /// removal it would answer from the old resource until it expires. Every request of the
    /// account in flight is kept from storing, not only those of this URL: that costs a fetch
    /// next time, and keeps nothing per URL.
    func invalidate(_ key: CacheEntryKey) {
        state.withLock { state in
            state.generations[key.account, default: 0] += 1
            state.entries.remove(key.with(method: .get))
            state.entries.remove(key.with(method: .head))
        }
    }

    /// Whether `ticket` is still `account`'s: no purge or invalidation of the account since it
    /// was taken.
    func isCurrent(_ ticket: Ticket, account: AccountKey) -> Bool {
        state.withLock { state in ticket == Ticket(generation: state.generations[account] ?? 0, epoch: state.epoch) }
    }

    /// Removes the entry for `key`.
    func remove(_ key: CacheEntryKey) {
        _ = state.withLock { $0.entries.remove(key) }
    }

    enum Counter { case hit, miss, revalidation, staleServed }

    /// Counts an outcome.
    func count(_ counter: Counter) {
        switch counter {
        case .hit: hits.add(1, ordering: .relaxed)
        case .miss: misses.add(1, ordering: .relaxed)
        case .revalidation: revalidations.add(1, ordering: .relaxed)
        case .staleServed: staleServed.add(1, ordering: .relaxed)
        }
    }
}
