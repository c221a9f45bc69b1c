// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthHTTPClient
import Dispatch
import Foundation
import Synchronization
import Testing

/// `HTTPClientTransport.send` does its work (building the request, copying the bodies) off the
/// executor of an actor that calls it: the actor gets back one job, the response, whatever the
/// transport awaited on the way. A caller on no actor is answered in place.
@Suite struct TransportExecutorTests {
    /// A serial executor that counts the jobs it is given.
    final class CountingExecutor: SerialExecutor, @unchecked Sendable {
        private let queue = DispatchQueue(label: "counting-executor")
        private let count = Atomic<Int>(0)
        var jobs: Int { count.load(ordering: .relaxed) }

        func enqueue(_ job: consuming ExecutorJob) {
            count.add(1, ordering: .relaxed)
            let job = UnownedJob(job)
            queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
        }
    }

    /// An actor on a ``CountingExecutor``.
    actor Caller {
        let executor = CountingExecutor()
        nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

        /// Sends `request`; the response's status and body, and the jobs the actor was given meanwhile.
        func send(_ request: AuthRequest, through transport: HTTPClientTransport) async throws -> (status: Int, body: Data, jobs: Int) {
            let before = executor.jobs
            let response = try await transport.send(request)
            return (response.status.code, response.body, executor.jobs - before)
        }
    }

    @Test func anActorGetsBackOneJobTheResponse() async throws {
        try await EchoServer.withRunning { base in
            try await HTTPClientTransport.withTransport { transport in
                let caller = Caller()
                let payload = Data(repeating: 0x61, count: 200_000)
                for body in [Data(), payload] {
                    let request = try AuthRequest(method: body.isEmpty ? .get : .post, url: base.appending(path: "echo"), body: body)
                    let sent = try await caller.send(request, through: transport)
                    #expect(sent.status == 200)
                    let echo = try JSONDecoder().decode(EchoServer.Echo.self, from: sent.body)
                    #expect(echo.body.utf8.count == body.count)
                    #expect(sent.jobs == 1, "the transport's steps ran on the caller's actor")
                }
            }
        }
    }
}
