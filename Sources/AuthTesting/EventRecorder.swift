// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
import Synchronization

/// Records the events of an ``/AuthCore/AuthEvents`` broadcaster in the background, for tests that check
/// what a pipeline reported.
///
/// ```swift
/// let recorder = EventRecorder(events)
/// let seen = await recorder.waitFor { $0.contains(.renewed(alice)) }
/// ```
public final class EventRecorder: Sendable {
    private let events = Mutex<[AuthEvent]>([])

    /// Starts recording every event `source` emits from now on.
    public init(_ source: AuthEvents) {
        let stream = source.stream()
        Task { [self] in
            for await event in stream { events.withLock { $0.append(event) } }
        }
    }

    /// Waits until `predicate` holds for the recorded events, for at most `timeout`, and returns
    /// them (whether or not it held, so the caller's expectation reports what was seen).
    ///
    /// It returns as soon as the predicate holds, so the generous default costs a passing test
    /// nothing; it only decides how long a failing one takes. A shorter bound fails on a loaded
    /// machine (a full test run starts about a thousand tests on two threads), not on a defect.
    public nonisolated(nonsending) func waitFor(timeout: Duration = .seconds(30), _ predicate: ([AuthEvent]) -> Bool) async -> [AuthEvent] {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while clock.now < deadline {
            let current = all
            if predicate(current) { return current }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return all
    }

    /// The events recorded so far, in order.
    public var all: [AuthEvent] { events.withLock { $0 } }
}
