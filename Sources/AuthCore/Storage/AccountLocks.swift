// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// Async mutual exclusion per account, fair in arrival order; for in-process locking.
///
/// Waiting suspends the task rather than blocking a thread. Stores on disk use it to exclude
/// callers in their own process before taking their cross-process lock. A waiter waits at most
/// the time it is given, and no longer than its task: one that times out or is cancelled leaves
/// the queue, and the lock passes to the next.
public actor AccountLocks {
    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Void, any Error>
    }

    private var held: Set<AccountKey> = []
    private var waiters: [AccountKey: [Waiter]] = [:]
    private var lastWaiter: UInt64 = 0

    /// Creates a set of locks, all free.
    public init() {}

    /// Runs `body` holding the lock of `account`.
    /// - Parameters:
    ///   - account: The account whose lock is held.
    ///   - timeout: The longest wait for the lock; nil for as long as it takes.
    ///   - body: What runs while the lock is held.
    /// - Throws: `CredentialStoreError.unavailable` when the lock was not free within `timeout`;
    ///   `CancellationError` when the task is cancelled while waiting; whatever `body` throws.
    public func withLock<T: Sendable>(_ account: AccountKey, waitingAtMost timeout: Duration? = nil, _ body: @Sendable () async throws -> T) async throws -> T {
        try await acquire(account, waitingAtMost: timeout)
        defer { release(account) }
        return try await body()
    }

    private func acquire(_ account: AccountKey, waitingAtMost timeout: Duration?) async throws {
        if held.insert(account).inserted { return }
        lastWaiter &+= 1
        let id = lastWaiter
        let timer = timeout.map { timeout in
            Task {
                guard (try? await Task.sleep(for: timeout)) != nil else { return }  // acquired or cancelled first
                self.giveUp(id, account, CredentialStoreError.unavailable("the lock of account \(account) was held in this process for longer than \(timeout); try again later"))
            }
        }
        defer { timer?.cancel() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                guard !Task.isCancelled else { return continuation.resume(throwing: CancellationError()) }
                waiters[account, default: []].append(Waiter(id: id, continuation: continuation))
            }
        } onCancel: {
            Task { await self.giveUp(id, account, CancellationError()) }
        }
    }

    /// Takes waiter `id` out of the queue and resumes it with `error`, unless the lock passed to
    /// it already.
    private func giveUp(_ id: UInt64, _ account: AccountKey, _ error: any Error) {
        guard var queue = waiters[account], let index = queue.firstIndex(where: { $0.id == id }) else { return }
        let waiter = queue.remove(at: index)
        waiters[account] = queue.isEmpty ? nil : queue
        waiter.continuation.resume(throwing: error)
    }

    private func release(_ account: AccountKey) {
        if var queue = waiters[account], !queue.isEmpty {
            let next = queue.removeFirst()
            waiters[account] = queue.isEmpty ? nil : queue
            next.continuation.resume()  // ownership passes to the next waiter
        } else {
            held.remove(account)
        }
    }
}
