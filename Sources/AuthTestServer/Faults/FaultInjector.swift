// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Synchronization

/// Faults queued per path, plus the per-key hit counts of the `/fault/status/{code}` endpoint.
///
/// The next `times` requests to a path get the fault, then the path behaves normally again.
/// Faults injected for the same path are served in the order they were injected.
///
/// ```swift
/// server.faults.inject(.status(503), path: "/me", times: 2)   // 503, 503, then the real /me
/// ```
public final class FaultInjector: Sendable {
    private struct Pending: Sendable {
        var fault: Fault
        var remaining: Int
    }

    private let pending = Mutex<[String: [Pending]]>([:])
    private let statusHits = Mutex<[String: Int]>([:])

    /// Creates an injector with nothing queued.
    public init() {}

    /// Queues `fault` for the next `times` requests to `path`.
    /// - Parameters:
    ///   - fault: What to answer.
    ///   - path: Exact request path without query, e.g. `/auth/refresh`.
    ///   - times: How many requests get it; values below 1 queue nothing.
    public func inject(_ fault: Fault, path: String, times: Int = 1) {
        guard times > 0 else { return }
        pending.withLock { $0[path, default: []].append(Pending(fault: fault, remaining: times)) }
    }

    /// How many requests to `path` will still get a fault.
    /// - Parameter path: Exact request path.
    public func remaining(path: String) -> Int {
        pending.withLock { $0[path, default: []].reduce(0) { $0 + $1.remaining } }
    }

    /// Drops every queued fault and every `/fault/status` key count.
    public func clear() {
        pending.withLock { $0 = [:] }
        statusHits.withLock { $0 = [:] }
    }

    /// Takes the fault for one request to `path`, if any is queued.
    func take(path: String) -> Fault? {
        pending.withLock { table -> Fault? in
            guard var queue = table[path], !queue.isEmpty else { return nil }
            let fault = queue[0].fault
            queue[0].remaining -= 1
            if queue[0].remaining <= 0 { queue.removeFirst() }
            table[path] = queue.isEmpty ? nil : queue
            return fault
        }
    }

    /// Counts one hit on `key` and returns how many hits it had before this one.
    func recordStatusHit(key: String) -> Int {
        statusHits.withLock { hits in
            let previous = hits[key, default: 0]
            hits[key] = previous + 1
            return previous
        }
    }
}
