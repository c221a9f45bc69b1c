// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// Where credentials live: async keyed records `(namespace, account, item) → Envelope`.
///
/// The storage plug-in point. AuthCore ships ``InMemoryCredentialStore``; AuthSQLiteStore and
/// AuthFileStore persist to disk. A ``CredentialVault`` on top encodes typed credentials.
///
/// ## Implementing
/// - `put` is atomic: after a crash a record holds its old or its new value, never a mix.
/// - Throw ``CredentialStoreError`` with code `.unavailable` when the store is locked or busy: a
///   caller must never read that as "signed out". A record that cannot be read is `.corrupted`
///   (naming the record, and left in place or quarantined, never silently dropped).
/// - Listing returns names in ascending order.
/// - ``replace(_:ifCurrent:with:)`` has a default that reads, compares and writes; a store shared
///   by several processes should make it atomic (one transaction, or under its write lock).
/// Run `AuthTesting`'s `CredentialStoreConformance` against your store.
public protocol CredentialStore: Sendable {
    /// The record at `key`, or nil when there is none.
    func get(_ key: CredentialKey) async throws -> Envelope?
    /// Writes the record at `key` atomically, replacing any previous one.
    func put(_ envelope: Envelope, for key: CredentialKey) async throws
    /// Removes the record at `key`; removing a missing record is not an error.
    func delete(_ key: CredentialKey) async throws
    /// The item names stored for one account.
    func items(of account: AccountKey) async throws -> [String]
    /// The accounts that have at least one record in `namespace`.
    func accounts(in namespace: String) async throws -> [String]
    /// The namespaces that have at least one record.
    func namespaces() async throws -> [String]
    /// Removes every record of one account.
    func deleteAccount(_ account: AccountKey) async throws
    /// Removes every record.
    func deleteAll() async throws
    /// Writes `envelope` at `key` (or removes the record when `envelope` is nil) only if the
    /// record there is still `expected` (nil: no record); returns whether it did.
    ///
    /// This is how a renewal is fenced: it replaces the record it renewed from, and a sign-in or
    /// sign-out that changed the record meanwhile (in any process) makes the write fail instead
    /// of being undone. It is also how a renewal takes its lease (``RenewalPolicy/leaseTerm``):
    /// once it returns, reads of *any* record of the account come from the store as it is then,
    /// so a store that keeps records in memory drops the account's.
    func replace(_ key: CredentialKey, ifCurrent expected: Envelope?, with envelope: Envelope?) async throws -> Bool
}

extension CredentialStore {
    /// Reads, compares and writes: atomic only within the caller's own exclusion. Stores shared by
    /// several processes implement it in one transaction.
    public func replace(_ key: CredentialKey, ifCurrent expected: Envelope?, with envelope: Envelope?) async throws -> Bool {
        guard try await get(key) == expected else { return false }
        if let envelope { try await put(envelope, for: key) } else { try await delete(key) }
        return true
    }
}

/// A store capability: an exclusive section per account that also excludes other processes
/// sharing the store, so that a renewal runs once per account across them.
///
/// ## Implementing
/// Run `body` while holding a lock for `account` that no other caller (in this process or, for a
/// store on disk, another process) can hold at the same time; release it when `body` returns or
/// throws, and let a crashed holder's lock lapse. Throw `CredentialStoreError.unavailable` when the
/// lock cannot be had in reasonable time.
public protocol RefreshLocking: Sendable {
    /// Runs `body` while holding the refresh lock of `account`.
    func withRefreshLock<T: Sendable>(
        for account: AccountKey,
        _ body: @Sendable () async throws -> T
    ) async throws -> T
}
