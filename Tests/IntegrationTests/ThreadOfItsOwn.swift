// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// The result of `body`, a blocking call (reading a child process's output), run on a thread of
/// its own.
///
/// Not on a Dispatch queue: on Linux the global queues share a few threads and add one only
/// when a monitor sees them all blocked, and a full run has many blocking readers (worker
/// processes, peers, the demo). A read queued behind them started seconds late: the demo's story
/// ran to its end before the test read the line at which it meant to interrupt it.
func onThreadOfItsOwn<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { (done: CheckedContinuation<T, Never>) in
        Thread { done.resume(returning: body()) }.start()
    }
}
