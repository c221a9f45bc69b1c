// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
public import Foundation
import Synchronization

/// A clock that only moves when told to, for tests of expiry, backoff and skew.
///
/// `sleep(for:)` does not wait: it records the duration and advances the clock by it, so a
/// test can assert how long code would have waited without waiting. It still throws
/// `CancellationError` when the task is already cancelled.
public final class ManualClock: AuthClock {
    private let state: Mutex<(now: Date, sleeps: [Duration])>

    /// Starts at `start` (default 2026-01-01T00:00:00Z).
    public init(start: Date = Date(timeIntervalSince1970: 1_767_225_600)) {
        state = Mutex((start, []))
    }

    /// The current manual time.
    public func now() -> Date { state.withLock { $0.now } }

    /// Moves the clock forward.
    public func advance(by seconds: TimeInterval) {
        state.withLock { $0.now = $0.now.addingTimeInterval(seconds) }
    }

    /// Sets the clock.
    public func set(_ date: Date) { state.withLock { $0.now = date } }

    /// Every duration passed to `sleep(for:)`, in order.
    public var sleeps: [Duration] { state.withLock { $0.sleeps } }

    /// Records the duration and advances the clock by it.
    public func sleep(for duration: Duration) async throws {
        try Task.checkCancellation()
        state.withLock {
            $0.sleeps.append(duration)
            let (seconds, attoseconds) = duration.components
            $0.now = $0.now.addingTimeInterval(Double(seconds) + Double(attoseconds) / 1e18)
        }
        await Task.yield()
    }
}
