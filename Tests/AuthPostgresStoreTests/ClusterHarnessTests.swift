// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthTesting
import Foundation
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
    }
}
