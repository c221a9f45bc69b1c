// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where AuthKit reads the time and how it waits; injected so tests control both.
///
/// ## Implementing
/// `now()` returns the current wall-clock time; `sleep(for:)` suspends for the duration and
/// throws `CancellationError` promptly when the task is cancelled. AuthTesting's `ManualClock`
/// is the test implementation.
public protocol AuthClock: Sendable {
    /// The current time.
    func now() -> Date
    /// Suspends the current task for `duration`.
    /// - Throws: `CancellationError` when the task is cancelled while waiting.
    func sleep(for duration: Duration) async throws
}

/// The real clock: `Date()` and `Task.sleep`.
public struct SystemClock: AuthClock {
    /// Creates the system clock.
    public init() {}
    /// `Date()`: the system's real-time clock.
    public func now() -> Date {
        #if canImport(Glibc)
        // What Foundation's `Date()` reads, read directly: its own path costs about 70
        // instructions more, and a request reads the clock twice.
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Date(timeIntervalSince1970: Double(time.tv_sec) + Double(time.tv_nsec) / 1_000_000_000)
        #else
        Date()
        #endif
    }
    /// `Task.sleep(for:)`.
    public func sleep(for duration: Duration) async throws { try await Task.sleep(for: duration) }
}

extension Duration {
    /// The duration in seconds as a floating-point number.
    ///
    /// From the 128-bit count of attoseconds by its two words: `components` divides it by 10¹⁸
    /// (about 190 instructions), `Double(attoseconds)` converts through unspecialized generic
    /// code (thousands), and this is asked for on every request (the leeway a credential must
    /// still have). The package's one conversion to seconds (SQLite, Foundation and the caches
    /// take them too).
    package var seconds: Double {
        let magnitude = attoseconds.magnitude
        let high = UInt64(truncatingIfNeeded: magnitude >> 64)
        let low = UInt64(truncatingIfNeeded: magnitude)
        let seconds = (Double(high) * 0x1p64 + Double(low)) / 1e18
        return attoseconds < 0 ? -seconds : seconds
    }

    /// The duration in whole milliseconds, rounded toward zero, as SQLite's busy timeout,
    /// PostgreSQL's `lock_timeout` and the test workers' environment take it.
    package var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds &* 1_000 &+ attoseconds / 1_000_000_000_000_000
    }
}
