// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
import Synchronization

extension ResponseCache {
    /// Follows `events` and purges an account's entries when it signs out
    /// (``/AuthCore/AuthEvent/signedOut(_:)``) or must sign in again
    /// (``/AuthCore/AuthEvent/reauthenticationRequired(_:reason:)``).
    ///
    /// The subscription is made before this method returns, so an event emitted right after
    /// is seen. The purge itself runs on the returned task shortly after the event; `onPurge`
    /// is called after it, which lets a caller (or a test) wait for it. Listening stops when the
    /// task is cancelled or the cache is released.
    ///
    /// ```swift
    /// cache.observe(container[AuthEventsKey.self]) { account, removed in
    ///     logger.info("cache purged", metadata: ["account": "\(account)", "entries": "\(removed)"])
    /// }
    /// ```
    /// - Parameters:
    ///   - events: The broadcaster the account sessions report to.
    ///   - onPurge: Called with the account and the number of entries removed, after each purge.
    /// - Returns: The listening task.
    @discardableResult
    public func observe(_ events: AuthEvents, onPurge: (@Sendable (AccountKey, Int) -> Void)? = nil) -> Task<Void, Never> {
        let stream = events.stream()
        let task = Task { [weak self] in
            for await event in stream {
                guard let self else { return }
                switch event {
                case .signedOut(let account), .reauthenticationRequired(let account, _):
                    let removed = self.purge(account: account)
                    onPurge?(account, removed)
                default:
                    continue
                }
            }
        }
        listeners.withLock { $0.append(task) }
        return task
    }
}
