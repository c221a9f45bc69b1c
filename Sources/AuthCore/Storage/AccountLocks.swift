// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// Async mutual exclusion per account, fair in arrival order; for in-process locking.
///
/// Waiting suspends the task rather than blocking a thread. Stores on disk use it to exclude
/// callers in their own process before taking their cross-process lock.
public actor AccountLocks {
    private var held: Set<AccountKey> = []
    private var waiters: [AccountKey: [CheckedContinuation<Void, Never>]] = [:]

    /// Creates a set of locks, all free.
    public init() {}

    /// Runs `body` holding the lock of `account`.
    public func withLock<T: Sendable>(_ account: AccountKey, _ body: @Sendable () async throws -> T) async throws -> T {
        await acquire(account)
        defer { release(account) }
        return try await body()
    }

    private func acquire(_ account: AccountKey) async {
        if held.insert(account).inserted { return }
        await withCheckedContinuation { waiters[account, default: []].append($0) }
    }

    private func release(_ account: AccountKey) {
        if var queue = waiters[account], !queue.isEmpty {
            let next = queue.removeFirst()
            waiters[account] = queue.isEmpty ? nil : queue
            next.resume()  // ownership passes to the next waiter
        } else {
            held.remove(account)
        }
    }
}
