// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Synchronization

/// An operation raced against a deadline without waiting for the operation to notice: unlike a
/// task group, which waits for every child, the caller resumes when the deadline passes even if
/// the operation is stuck (then cancelled, and left to end by itself).
enum Deadline {
    /// The result of `body`, or the error `expired` makes when `timeout` passes first.
    static func run<T: Sendable>(within timeout: Duration, _ body: @escaping @Sendable () async throws -> T, expired: @escaping @Sendable () -> any Error) async throws -> T {
        let race = Race<T>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                race.arm(continuation)
                let timer = Task {
                    try await Task.sleep(for: timeout)
                    race.finish(.failure(expired()))
                }
                let work = Task {
                    let result: Result<T, any Error>
                    do {
                        result = .success(try await body())
                    } catch {
                        result = .failure(error)
                    }
                    timer.cancel()
                    race.finish(result)
                }
                race.onEnd { work.cancel(); timer.cancel() }
            }
        } onCancel: {
            race.finish(.failure(CancellationError()))
        }
    }

    /// One continuation resumed once, by whichever side finishes first.
    private final class Race<T: Sendable>: Sendable {
        private struct State {
            var continuation: CheckedContinuation<T, any Error>?
            var outcome: Result<T, any Error>?
            var cleanup: (@Sendable () -> Void)?
        }
        private let state = Mutex(State())

        func arm(_ continuation: CheckedContinuation<T, any Error>) {
            let early = state.withLock { state -> Result<T, any Error>? in
                if let outcome = state.outcome { return outcome }
                state.continuation = continuation
                return nil
            }
            if let early { continuation.resume(with: early) }
        }

        /// Runs `cleanup` when the race ends (at once if it already has).
        func onEnd(_ cleanup: @escaping @Sendable () -> Void) {
            let ended = state.withLock { state -> Bool in
                if state.outcome != nil { return true }
                state.cleanup = cleanup
                return false
            }
            if ended { cleanup() }
        }

        func finish(_ result: Result<T, any Error>) {
            let (continuation, cleanup) = state.withLock { state -> (CheckedContinuation<T, any Error>?, (@Sendable () -> Void)?) in
                guard state.outcome == nil else { return (nil, nil) }
                state.outcome = result
                defer {
                    state.continuation = nil
                    state.cleanup = nil
                }
                return (state.continuation, state.cleanup)
            }
            continuation?.resume(with: result)
            cleanup?()
        }
    }
}
