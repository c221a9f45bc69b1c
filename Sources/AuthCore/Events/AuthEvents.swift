// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Synchronization

/// Broadcasts ``AuthEvent``s to any number of observers.
///
/// Each call to ``stream()`` returns an independent `AsyncStream` that receives every event
/// emitted after it was created; a slow observer buffers up to `bufferSize` events and then drops
/// the oldest, so it never slows authentication down.
///
/// ```swift
/// for await event in container[AuthEventsKey.self].stream() {
///     if case .reauthenticationRequired(let account, _) = event { showSignIn(account) }
/// }
/// ```
public final class AuthEvents: Sendable {
    private let continuations = Mutex<[Int: AsyncStream<AuthEvent>.Continuation]>([:])
    /// How many streams are in `continuations`, changed with it under its lock, so that
    /// ``hasObservers`` reads one word rather than taking the lock.
    private let following = Atomic<Int>(0)
    private let nextID = Atomic<Int>(0)
    private let bufferSize: Int

    /// Creates a broadcaster.
    public init(bufferSize: Int = 256) { self.bufferSize = bufferSize }

    /// A new stream of the events emitted from now on; it ends when the stream is dropped.
    public func stream() -> AsyncStream<AuthEvent> {
        let id = nextID.add(1, ordering: .relaxed).newValue
        let (stream, continuation) = AsyncStream<AuthEvent>.makeStream(bufferingPolicy: .bufferingNewest(bufferSize))
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            continuations.withLock { if $0.removeValue(forKey: id) != nil { following.subtract(1, ordering: .relaxed) } }
        }
        continuations.withLock {
            $0[id] = continuation
            following.add(1, ordering: .relaxed)
        }
        return stream
    }

    /// Sends an event to every observer.
    public func emit(_ event: AuthEvent) {
        for continuation in continuations.withLock({ Array($0.values) }) {
            continuation.yield(event)
        }
    }

    /// The number of observers currently following.
    public var observerCount: Int { continuations.withLock { $0.count } }

    /// Whether any stream is following: what a middleware checks before work whose only result
    /// is an event (``RateLimitObserver`` reads a response's fields for one), so that a client
    /// nobody observes does none of it. An event emitted while a stream is being created may or
    /// may not reach it, as with ``emit(_:)``.
    package var hasObservers: Bool { following.load(ordering: .relaxed) > 0 }
}
