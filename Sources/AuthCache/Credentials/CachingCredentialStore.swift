// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
import Foundation
import Synchronization

/// A ``/AuthCore/CredentialStore`` decorator that keeps records in memory for a short time, so that
/// repeated reads of the same credential do not go to disk.
///
/// - Reads go through: a miss reads the inner store and keeps the record (or its absence) for
///   ``lifetime``.
/// - Writes go through: `put`, `delete`, `deleteAccount` and `deleteAll` write the inner store
///   first, then update or drop the cached records. A read that raced with a write never puts
///   the older value back.
/// - Another process writing the same store is seen once the cached record's lifetime has
///   passed (2 seconds by default); keep it short.
/// - When the inner store has ``/AuthCore/RefreshLocking`` so does this one: it forwards the lock and
///   drops the account's cached records on entering it, so a renewal re-reads what another
///   process may have written.
///
/// It caches the stored envelopes, not decoded credentials: the vault decodes (and opens
/// sealed payloads) above the store, and the core's `AccountSession` already keeps each
/// account's decoded credential in memory. What this saves is the I/O of the store, for
/// records read outside a session (device ids, other items) and for processes that build
/// sessions often. Listing calls are not cached.
///
/// ```swift
/// let store = CachingCredentialStore(try await SQLiteCredentialStore.open(at: path), lifetime: .seconds(2))
/// try await store.preload(account: AccountKey(namespace: "api", account: "alice"))
/// container.override(CredentialStoreKey.self, with: store)
/// ```
public final class CachingCredentialStore<Inner: CredentialStore>: CredentialStore, CredentialCaching {
    struct Cached {
        let envelope: Envelope?
        let expiresAt: Date
    }

    struct State {
        var entries: [CredentialKey: Cached] = [:]
        /// Raised when a write begins and when it ends; a read stores what it read only if no
        /// write began or ended while it was reading.
        var generation = 0
    }

    /// The store records are read from and written to.
    public let inner: Inner
    /// How long a record read from the inner store is trusted.
    public let lifetime: Duration
    /// The clock that expires cached records.
    public let clock: any AuthClock
    /// The most records kept; past it, expired records are dropped, then all.
    public let maxEntries: Int
    let state = Mutex(State())

    /// Wraps `inner`.
    /// - Parameters:
    ///   - inner: The store that holds the records.
    ///   - lifetime: How long a read record is trusted before the inner store is asked again.
    ///   - clock: The clock that expires records.
    ///   - maxEntries: The most records kept in memory.
    public init(_ inner: Inner, lifetime: Duration = .seconds(2), clock: any AuthClock = SystemClock(), maxEntries: Int = 10_000) {
        self.inner = inner
        self.lifetime = lifetime
        self.clock = clock
        self.maxEntries = maxEntries
    }

    /// The record at `key`, from memory while it is fresh.
    public func get(_ key: CredentialKey) async throws -> Envelope? {
        let now = clock.now()
        let (cached, generation) = state.withLock { state in (state.entries[key], state.generation) }
        if let cached, cached.expiresAt > now { return cached.envelope }
        return try await read(key, startingAt: generation)
    }

    /// Writes the record through to the inner store and keeps it.
    public func put(_ envelope: Envelope, for key: CredentialKey) async throws {
        try await write(keeping: [key: envelope]) { try await self.inner.put(envelope, for: key) } drop: { $0 == key }
    }

    /// Removes the record from the inner store and remembers that it is gone.
    public func delete(_ key: CredentialKey) async throws {
        try await write(keeping: [key: nil]) { try await self.inner.delete(key) } drop: { $0 == key }
    }

    /// Replaces the record in the inner store if it is still `expected` there (atomically, as the
    /// inner store does it; the cache is never the judge) and forgets the cached record.
    public func replace(_ key: CredentialKey, ifCurrent expected: Envelope?, with envelope: Envelope?) async throws -> Bool {
        var replaced = false
        // Every record of the account is dropped, not only this one: a fenced write is how a
        // renewal takes its lease, and what it reads next must come from the store (the
        // credential another process may have written), not from memory.
        try await write(keeping: [:]) { replaced = try await self.inner.replace(key, ifCurrent: expected, with: envelope) } drop: { $0.accountKey == key.accountKey }
        return replaced
    }

    /// The item names of one account, from the inner store.
    public func items(of account: AccountKey) async throws -> [String] { try await inner.items(of: account) }
    /// The accounts of a namespace, from the inner store.
    public func accounts(in namespace: String) async throws -> [String] { try await inner.accounts(in: namespace) }
    /// The namespaces, from the inner store.
    public func namespaces() async throws -> [String] { try await inner.namespaces() }

    /// Removes every record of one account, in the inner store and in memory.
    public func deleteAccount(_ account: AccountKey) async throws {
        try await write(keeping: [:]) { try await self.inner.deleteAccount(account) } drop: { $0.accountKey == account }
    }

    /// Removes every record, in the inner store and in memory.
    public func deleteAll() async throws {
        try await write(keeping: [:]) { try await self.inner.deleteAll() } drop: { _ in true }
    }

    /// Reads every record of `account` into memory, such as at start-up.
    /// - Returns: The number of records loaded.
    /// - Throws: The inner store's error.
    @discardableResult
    public func preload(account: AccountKey) async throws -> Int {
        let items = try await inner.items(of: account)
        for item in items {
            let generation = state.withLock { $0.generation }
            _ = try await read(account.item(item), startingAt: generation)
        }
        return items.count
    }

    /// Forgets the cached record at `key`; the next read goes to the inner store. A read that
    /// started before is not kept (it may hold what was there before the change).
    public func invalidate(_ key: CredentialKey) {
        state.withLock { state in
            state.entries[key] = nil
            state.generation += 1
        }
    }

    /// Forgets the cached records of `account` (and a read of them that started before).
    public func invalidate(account: AccountKey) {
        state.withLock { state in
            state.entries = state.entries.filter { $0.key.accountKey != account }
            state.generation += 1
        }
    }

    /// Forgets every cached record (and a read that started before).
    public func invalidateAll() {
        state.withLock { state in
            state.entries.removeAll()
            state.generation += 1
        }
    }
}
