// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// Runs blocking work (waiting for a process, polling a socket, sleeping between polls) on a
/// thread of its own, and suspends the caller until it ends.
///
/// The cooperative pool has as many threads as the machine has cores (two here). A test that
/// blocks one of them for seconds (`initdb`, `pg_ctl start -w`) stalls every other test's tasks
/// and timers meanwhile, and the tests that bound a wait in wall time then fail: a 2 s deadline
/// that fired after 15 s, a body read timeout of 8 s exceeded between parts sent 0.4 s apart.
/// Nor on a Dispatch queue: on Linux the global queues share a few threads and add one only when
/// a monitor sees them all blocked, so a blocking read of a child process's output queued there
/// behind others can start seconds late (a demo's story ran to its end before the test read the
/// line at which it meant to interrupt it).
public func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}

/// ``offPool(_:)`` for work that cannot fail.
public func offPool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: body()) }.start()
    }
}
