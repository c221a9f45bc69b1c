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
        /// The longest gap between the ticks of a task that sleeps 20 ms at a time.
        final class Ticker: Sendable {
            private let longest = Mutex(Duration.zero)
            var longestGap: Duration { longest.withLock { $0 } }

            func run() async {
                var last = ContinuousClock.now
                while (try? await Task.sleep(for: .milliseconds(20))) != nil {
                    let now = ContinuousClock.now
                    longest.withLock { $0 = max($0, now - last) }
                    last = now
                }
            }
        }

        @Test func startingAndStoppingClustersLeavesOtherTasksRunning() async throws {
            let ticker = Ticker()
            let ticking = Task { await ticker.run() }
            // As many clusters at once as the pool has threads: each waited on one of them.
            let clusters = max(2, ProcessInfo.processInfo.activeProcessorCount)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<clusters {
                    group.addTask {
                        try await PostgresTestCluster.withCluster { cluster in
                            try await cluster.restart()
                            try await cluster.execute(["SELECT 1"])
                        }
                    }
                }
                try await group.waitForAll()
            }
            ticking.cancel()
            await ticking.value
            #expect(ticker.longestGap < .milliseconds(500), "a task sleeping 20 ms at a time waited \(ticker.longestGap) while \(clusters) clusters started, restarted and stopped")
        }
    }
}
