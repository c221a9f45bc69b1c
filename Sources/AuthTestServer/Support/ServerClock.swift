// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Foundation
import Synchronization

/// The server's notion of "now", which tests can move without sleeping.
///
/// By default the clock follows real time plus an offset that starts at zero. ``set(_:)`` and
/// ``advance(by:)`` change the offset, so time keeps flowing from the new point. Build a clock on a
/// fixed base to freeze it entirely. Token expiry, the HTTP `Date` header and every other time the
/// server reads come from this clock.
///
/// ```swift
/// let clock = ServerClock()
/// let server = AuthTestServer(configuration: .init(clock: clock))
/// clock.advance(by: 301)   // every 300 s access token issued so far is now expired
/// ```
public final class ServerClock: Sendable {
    private let base: @Sendable () -> Date
    private let offset: Mutex<TimeInterval>

    /// Creates a clock that follows `base` (real time by default) plus an adjustable offset.
    /// - Parameter base: The underlying time source.
    public init(base: @escaping @Sendable () -> Date = { Date() }) {
        self.base = base
        self.offset = Mutex(0)
    }

    /// Creates a clock frozen at `date`; only ``set(_:)`` and ``advance(by:)`` move it.
    /// - Parameter date: The fixed instant the clock reports.
    public static func fixed(at date: Date) -> ServerClock {
        ServerClock(base: { date })
    }

    /// The current server time.
    public func now() -> Date {
        let offset = self.offset.withLock { $0 }
        return self.base().addingTimeInterval(offset)
    }

    /// Moves the clock so that ``now()`` reports `date` at this instant.
    /// - Parameter date: The new current time.
    public func set(_ date: Date) {
        let base = self.base()
        self.offset.withLock { $0 = date.timeIntervalSince(base) }
    }

    /// Moves the clock forward (or backward, with a negative value).
    /// - Parameter interval: Seconds to add to the current time.
    public func advance(by interval: TimeInterval) {
        self.offset.withLock { $0 += interval }
    }
}
