// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
import Foundation
import Synchronization

extension CachingCredentialStore {
    /// Reads `key` from the inner store and keeps it, unless a write began or ended since
    /// `generation` was taken (the value read may then be older than the one written).
    func read(_ key: CredentialKey, startingAt generation: Int) async throws -> Envelope? {
        let envelope = try await inner.get(key)
        let expiresAt = clock.now().addingTimeInterval(lifetime.seconds)
        state.withLock { state in
            guard state.generation == generation else { return }
            makeRoom(in: &state, at: clock.now())
            state.entries[key] = Cached(envelope: envelope, expiresAt: expiresAt)
        }
        return envelope
    }

    /// Runs a write on the inner store. Before it, the records it touches are dropped; after
    /// it, they are dropped again (a read that ran beside the write may have kept what the
    /// inner store held before it), and, when it succeeded and no other write began or ended
    /// meanwhile, `keeping` is stored.
    func write(
        keeping: [CredentialKey: Envelope?],
        _ operation: () async throws -> Void,
        drop touched: @escaping (CredentialKey) -> Bool
    ) async throws {
        let started = state.withLock { state in
            state.generation += 1
            state.entries = state.entries.filter { !touched($0.key) }
            return state.generation
        }
        do {
            try await operation()
        } catch {
            state.withLock { state in
                state.generation += 1
                state.entries = state.entries.filter { !touched($0.key) }
            }
            throw error
        }
        let expiresAt = clock.now().addingTimeInterval(lifetime.seconds)
        state.withLock { state in
            state.entries = state.entries.filter { !touched($0.key) }
            if state.generation == started {
                makeRoom(in: &state, at: clock.now())
                for (key, envelope) in keeping { state.entries[key] = Cached(envelope: envelope, expiresAt: expiresAt) }
            }
            state.generation += 1
        }
    }

    /// Keeps the number of records under `maxEntries`: expired ones go first, then all.
    private func makeRoom(in state: inout State, at now: Date) {
        guard state.entries.count >= maxEntries else { return }
        state.entries = state.entries.filter { $0.value.expiresAt > now }
        if state.entries.count >= maxEntries { state.entries.removeAll() }
    }
}

extension CachingCredentialStore: RefreshLocking where Inner: RefreshLocking {
    /// Runs `body` holding the inner store's refresh lock for `account`, after dropping the
    /// account's cached records so that `body` reads what other processes wrote.
    public func withRefreshLock<T: Sendable>(for account: AccountKey, _ body: @Sendable () async throws -> T) async throws -> T {
        try await inner.withRefreshLock(for: account) {
            self.invalidate(account: account)
            return try await body()
        }
    }
}
