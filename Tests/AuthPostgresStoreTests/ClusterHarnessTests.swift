// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthTesting
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import Testing

extension PostgresSuites {
    /// The test harness's PostgreSQL clusters wait for `initdb` and `pg_ctl` on threads of their
    /// own. Waiting on the cooperative pool (as many threads as cores) stalled every other test
    /// of a full run meanwhile, and the tests that bound a wait in wall time failed.
    @Suite(.timeLimit(.minutes(3)))
    struct ClusterHarnessTests {
        /// Counts the ticks of a task that sleeps 20 ms at a time.
        final class Ticker: Sendable {
            private let count = Atomic<Int>(0)
            var ticks: Int { count.load(ordering: .relaxed) }

            func run() async {
                while (try? await Task.sleep(for: .milliseconds(20))) != nil {
                    count.add(1, ordering: .relaxed)
                }
            }
        }

        /// How many tasks arrived.
        final class Arrivals: Sendable {
            private let arrived = Atomic<Int>(0)
            var count: Int { arrived.load(ordering: .relaxed) }
            func arrive() { arrived.add(1, ordering: .relaxed) }
        }

        /// As many clusters as the pool has threads start and restart, then each waits 4 s for
        /// `psql` running `pg_sleep(4)`, all at once. Waiting on the pool, no other task ran
        /// during those 4 s; now a task sleeping 20 ms at a time goes on ticking. (A bound on
        /// the longest gap between ticks failed in a full run, whose start delays any task by
        /// seconds; a few ticks in 4 s do not.)
        @Test func waitingForClustersLeavesOtherTasksRunning() async throws {
            let ticker = Ticker()
            let ticking = Task { await ticker.run() }
            let clusters = max(2, ProcessInfo.processInfo.activeProcessorCount)
            let started = Arrivals()
            let ticksWhileWaiting = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<clusters {
                    group.addTask {
                        try await PostgresTestCluster.withCluster { cluster in
                            try await cluster.restart()
                            started.arrive()
                            while started.count < clusters { try await Task.sleep(for: .milliseconds(10)) }
                            let before = ticker.ticks
                            try await cluster.execute(["SELECT pg_sleep(4)"])
                            return ticker.ticks - before
                        }
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            ticking.cancel()
            await ticking.value
            #expect(ticksWhileWaiting.allSatisfy { $0 >= 5 }, "ticks of a task sleeping 20 ms while \(clusters) clusters each waited 4 s for psql: \(ticksWhileWaiting)")
        }

        /// A program the harness runs (`initdb`, `pg_ctl`, `psql`) holds none of this process's
        /// descriptors. SwiftNIO opens sockets without `CLOEXEC`; when the harness ran programs
        /// through a Python wrapper that closed them only for the program, the wrapper kept every
        /// socket open while the program ran, and a server another test had stopped meanwhile
        /// went on accepting connections (`LifecycleTests` failed so whenever a cluster started
        /// beside it). Here a listening socket opened as SwiftNIO opens it is closed while `psql`
        /// runs a long statement, and connecting to its port is refused.
        @Test func aSocketClosedWhileAProgramRunsIsClosed() async throws {
            try await PostgresTestCluster.withCluster { cluster in
                let (listener, port) = try Self.listenWithoutCloseOnExec()
                let sleeping = Task { try await cluster.execute(["SELECT pg_sleep(60)"]) }
                // Until the statement runs (then `psql`, and any wrapper before it, has started).
                let deadline = ContinuousClock.now + .seconds(30)
                while (try? await cluster.execute(["DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(60)') THEN RAISE EXCEPTION 'not yet'; END IF; END $$"])) == nil {
                    try #require(ContinuousClock.now < deadline, "psql's statement did not start within 30 s")
                    try await Task.sleep(for: .milliseconds(20))
                }
                close(listener)
                let connected = Self.connects(to: port)
                try await cluster.terminateBackends()
                _ = await sleeping.result
                #expect(!connected, "a connection to the closed socket's port \(port) was accepted while psql ran")
            }
        }

        /// A socket listening on 127.0.0.1 (a port the kernel picks), made as SwiftNIO makes
        /// one on Linux: without `SOCK_CLOEXEC`.
        static func listenWithoutCloseOnExec() throws -> (descriptor: Int32, port: Int) {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
            }
            let listening = descriptor >= 0 && bound && listen(descriptor, 16) == 0
            if !listening { close(descriptor) }
            try #require(listening, "could not listen on 127.0.0.1: errno \(errno)")
            return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
        }

        /// Whether a TCP connection to 127.0.0.1:`port` is accepted.
        static func connects(to port: Int) -> Bool {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(descriptor) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            } == 0
        }
    }
}
