// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Synchronization

/// Something the server counts.
public enum CounterEvent: Sendable, Hashable {
    /// A successful password login.
    case login
    /// A successful refresh.
    case renewal
    /// A refresh with an already-rotated refresh token.
    case rejectedReuse
    /// A guest session started.
    case guestSession
    /// A user registered.
    case registration
    /// A counter named by an extra route group (read with ``ServerCounters/count(_:)``).
    case custom(String)
}

/// Thread-safe counters; synchronous so tests read them without `await`.
public final class CounterRecorder: Sendable {
    private let storage = Mutex(ServerCounters())

    /// Creates zeroed counters.
    public init() {}

    /// The current values.
    public var snapshot: ServerCounters {
        storage.withLock { $0 }
    }

    /// Adds one to the counter for `event`.
    /// - Parameter event: What happened.
    public func record(_ event: CounterEvent) {
        storage.withLock { counters in
            switch event {
            case .login: counters.logins += 1
            case .renewal: counters.renewals += 1
            case .rejectedReuse: counters.rejectedReuse += 1
            case .guestSession: counters.guestSessions += 1
            case .registration: counters.registrations += 1
            case .custom(let name): counters.custom[name, default: 0] += 1
            }
        }
    }

    /// Counts a request to `path` and remembers its header fields and query.
    /// - Parameters:
    ///   - path: The request path without query.
    ///   - headers: Header fields with lower-cased names.
    ///   - query: The query as it arrived, without `?`.
    public func recordRequest(path: String, headers: [String: String], query: String = "") {
        storage.withLock { counters in
            counters.requestsByPath[path, default: 0] += 1
            counters.lastHeadersByPath[path] = headers
            counters.lastQueryByPath[path] = query
        }
    }

    /// Sets every counter back to zero.
    public func reset() {
        storage.withLock { $0 = ServerCounters() }
    }
}
