// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Synchronization

/// A ``CredentialStore`` that keeps records in memory, with in-process ``RefreshLocking``.
///
/// The default store of ``AuthContainer``; what tests and examples use. Nothing survives the
/// process: a client built on the default store says so (``AuthEvent/credentialsNotPersisted(_:)``
/// and a notice in the container's log); one you set yourself is taken as meant.
public final class InMemoryCredentialStore: CredentialStore, RefreshLocking {
    private let records = Mutex<[CredentialKey: Envelope]>([:])
    private let locks = AccountLocks()
    /// Whether the container made it because no store was configured.
    let isContainerDefault: Bool

    /// Creates an empty store.
    public init() {
        isContainerDefault = false
    }

    /// The store a container makes when none was configured.
    init(containerDefault: Void) {
        isContainerDefault = true
    }

    /// The record at `key`.
    public func get(_ key: CredentialKey) async throws -> Envelope? {
        records.withLock { $0[key] }
    }
    /// Replaces the record at `key`.
    public func put(_ envelope: Envelope, for key: CredentialKey) async throws {
        records.withLock { $0[key] = envelope }
    }
    /// Removes the record at `key`.
    public func delete(_ key: CredentialKey) async throws {
        _ = records.withLock { $0.removeValue(forKey: key) }
    }
    /// Replaces the record at `key` if it is still `expected`, atomically.
    public func replace(_ key: CredentialKey, ifCurrent expected: Envelope?, with envelope: Envelope?) async throws -> Bool {
        records.withLock { records in
            guard records[key] == expected else { return false }
            records[key] = envelope
            return true
        }
    }
    /// The items of one account, sorted.
    public func items(of account: AccountKey) async throws -> [String] {
        records.withLock { $0.keys.filter { $0.accountKey == account }.map(\.item) }.sorted()
    }
    /// The accounts of a namespace, sorted.
    public func accounts(in namespace: String) async throws -> [String] {
        Set(records.withLock { $0.keys.filter { $0.namespace == namespace }.map(\.account) }).sorted()
    }
    /// The namespaces, sorted.
    public func namespaces() async throws -> [String] {
        Set(records.withLock { $0.keys.map(\.namespace) }).sorted()
    }
    /// Removes an account's records.
    public func deleteAccount(_ account: AccountKey) async throws {
        records.withLock { $0 = $0.filter { $0.key.accountKey != account } }
    }
    /// Removes everything.
    public func deleteAll() async throws {
        records.withLock { $0.removeAll() }
    }
    /// Runs `body` while no other caller in this process holds the lock of `account`.
    public func withRefreshLock<T: Sendable>(for account: AccountKey, _ body: @Sendable () async throws -> T) async throws -> T {
        try await locks.withLock(account, body)
    }
}
