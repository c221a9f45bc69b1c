// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AsyncHTTPClient
import NIOCore
import Synchronization

/// Bounds each wait for a response body's bytes, for all of a transport's requests at once: a
/// body that brings no bytes for ``timeout`` ends with ``BodyReadTimedOut``.
///
/// AsyncHTTPClient's own read timeout does this with a timer that every request starts, moves
/// and stops on its connection's event loop: about 18,000 instructions a request over loopback,
/// and at high concurrency the loop's time (`Benchmarks/README.md`). Here a read takes a slot in
/// a table (a lock and a store), counts the chunks it gets, and one sweep every ``interval``, on
/// one event loop, looks at every slot: a read whose count has not moved for ``timeout`` is
/// cancelled. The sweep runs only while reads come, and stops after an interval without one.
///
/// The read runs in a child task started at once on the caller's thread, so that a body already
/// received costs no thread hand-off, and cancelling the read leaves the caller's task as it was.
/// The sweep cancels under the table's lock, so the read's cancellation handlers (AsyncHTTPClient's,
/// which fail the request) run under it and must not call back into the table; they do not.
final class BodyReadWatch: Sendable {
    /// How long a read may go without bytes.
    let timeout: Duration
    /// How often the sweep looks: a stalled read ends between ``timeout`` and ``timeout`` plus
    /// twice this after its last bytes (the sweep that first sees them may come up to an interval
    /// after them, and the one that ends the read up to an interval after the bound).
    let interval: Duration
    private let loops: any EventLoopGroup
    private let state = Mutex(State())

    /// - Parameters:
    ///   - timeout: How long a read may go without bytes; at or below zero, a read ends about
    ///     two milliseconds after its last bytes.
    ///   - loops: Where the sweep runs.
    init(timeout: Duration, loops: any EventLoopGroup) {
        self.timeout = timeout
        interval = Self.interval(for: timeout)
        self.loops = loops
    }

    /// A quarter of `timeout`, at least a millisecond and at most a second.
    static func interval(for timeout: Duration) -> Duration {
        min(max(timeout / 4, .milliseconds(1)), .seconds(1))
    }

    /// The whole body, at most `limit` bytes, read in a child task that the sweep cancels when
    /// it stalls.
    /// - Parameter expected: The body's length as the response's head gives it (nil when it
    ///   does not): a body announced longer than `limit` is refused before a byte is read, as
    ///   AsyncHTTPClient's `collect(upTo:)` does, and an empty one is read without a child task.
    /// - Throws: ``BodyReadTimedOut`` when the body stalled; `NIOTooManyBytesError` past
    ///   `limit`; what reading the body throws (`CancellationError` when the caller's task is
    ///   cancelled).
    func collect(_ body: HTTPClientResponse.Body, upTo limit: Int, expected: Int?) async throws -> ByteBuffer {
        if let expected {
            guard expected <= limit else { throw NIOTooManyBytesError(maxBytes: limit) }
            if expected == 0 { return try await body.collect(upTo: limit) }
        }
        return try await withThrowingTaskGroup(of: ByteBuffer.self) { group in
            if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
                group.addImmediateTask { try await self.read(body, upTo: limit) }
            } else {
                group.addTask { try await self.read(body, upTo: limit) }
            }
            // The group's one task: `next()` gives its result (nil only for a group without one).
            return try await group.next() ?? ByteBuffer()
        }
    }

    /// Reads `body` in the current (child) task, in a slot of the table.
    private func read(_ body: HTTPClientResponse.Body, upTo limit: Int) async throws -> ByteBuffer {
        let slot = withUnsafeCurrentTask { begin($0) }
        do {
            var chunks = body.makeAsyncIterator()
            var collected = ByteBuffer()
            while var chunk = try await chunks.next() {
                noteChunk(in: slot)
                guard chunk.readableBytes <= limit - collected.readableBytes else { throw NIOTooManyBytesError(maxBytes: limit) }
                // The first chunk as it came, without a copy; later ones appended to it.
                if collected.capacity == 0 { collected = chunk } else { collected.writeBuffer(&chunk) }
            }
            end(slot)
            return collected
        } catch {
            if end(slot) { throw BodyReadTimedOut(timeout: timeout) }
            throw error
        }
    }

    // MARK: The table

    /// A read's task, which the sweep may cancel.
    ///
    /// A deliberate use of `UnsafeCurrentTask` outside `withUnsafeCurrentTask`, which its
    /// documentation leaves undefined: it is kept here only while the read runs (the read takes
    /// it out, under the lock, before its task can end), the sweep reaches it only under the same
    /// lock, and `cancel()` is the one thing done with it, which the runtime allows from any
    /// thread. A child task of the transport's own gives no other handle to cancel it by.
    private struct WatchedTask: @unchecked Sendable {
        let task: UnsafeCurrentTask?
    }

    /// A slot of the table: a read while `isReading`, else free.
    private struct Read {
        var task: WatchedTask
        var isReading: Bool
        /// Chunks received so far.
        var chunks = 0
        /// The count the sweep last saw, and when it first saw that count.
        var seen = -1
        var since = NIODeadline.distantFuture
        /// The sweep cancelled it.
        var timedOut = false

        init(_ task: UnsafeCurrentTask?, isReading: Bool = true) {
            self.task = WatchedTask(task: task)
            self.isReading = isReading
        }
    }

    private struct State {
        var reads: [Read] = []
        var freeSlots: [Int] = []
        var running = 0
        var isSweeping = false
        /// Whether a read began since the last sweep: the sweep stops only after an interval
        /// without one, so that requests one after another do not start it each time.
        var began = false
        /// Reads begun so far, for tests.
        var begun = 0
    }

    /// How many bodies have been read here so far (each in a child task).
    var readsBegun: Int { state.withLock { $0.begun } }

    /// A slot for a read by `task`; starts the sweep when it is not running.
    private func begin(_ task: UnsafeCurrentTask?) -> Int {
        let (slot, startSweep) = state.withLock { state -> (Int, Bool) in
            let slot: Int
            if let free = state.freeSlots.popLast() {
                state.reads[free] = Read(task)
                slot = free
            } else {
                state.reads.append(Read(task))
                slot = state.reads.count - 1
            }
            state.running += 1
            state.begun &+= 1
            state.began = true
            let startSweep = !state.isSweeping
            state.isSweeping = true
            return (slot, startSweep)
        }
        if startSweep { scheduleSweeps() }
        return slot
    }

    private func noteChunk(in slot: Int) {
        state.withLock { $0.reads[slot].chunks += 1 }
    }

    /// Frees `slot`; whether the sweep had cancelled its read.
    @discardableResult
    private func end(_ slot: Int) -> Bool {
        state.withLock { state in
            let timedOut = state.reads[slot].timedOut
            state.reads[slot] = Read(nil, isReading: false)
            state.freeSlots.append(slot)
            state.running -= 1
            return timedOut
        }
    }

    private func scheduleSweeps() {
        let step = HTTPClientTransport.timeAmount(interval)
        loops.next().scheduleRepeatedTask(initialDelay: step, delay: step) { [self] repeated in
            if !sweep(at: .now()) { repeated.cancel() }
        }
    }

    /// Cancels every read whose count has not moved for ``timeout``; whether to go on sweeping.
    private func sweep(at now: NIODeadline) -> Bool {
        let limit = HTTPClientTransport.timeAmount(timeout)
        return state.withLock { state in
            for slot in state.reads.indices where state.reads[slot].isReading {
                if state.reads[slot].chunks != state.reads[slot].seen {
                    (state.reads[slot].seen, state.reads[slot].since) = (state.reads[slot].chunks, now)
                } else if !state.reads[slot].timedOut, now - state.reads[slot].since >= limit {
                    state.reads[slot].timedOut = true
                    state.reads[slot].task.task?.cancel()
                }
            }
            guard state.running > 0 || state.began else {
                state.isSweeping = false
                return false
            }
            state.began = false
            return true
        }
    }
}

/// A response's body brought no bytes for the transport's ``HTTPClientTransport/bodyReadTimeout``.
struct BodyReadTimedOut: Error {
    let timeout: Duration
}
