// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthHTTPClient
import AuthPostgresStore
import AuthTestServer
import AuthTesting
import Foundation
import Synchronization
import Testing

extension PostgresSuites {
    /// A fleet of worker processes (`auth-store-worker`), each its own pool and in-memory session, on
    /// one PostgreSQL store, against AuthTestServer's rotating refresh tokens (a presented refresh
    /// token that was already used revokes the family).
    @Suite(.serialized, .timeLimit(.minutes(5)))
    struct FleetProcessTests {
        /// 8 processes × 50 concurrent requests across 5 expiries: one renewal per expiry on the
        /// server, no reuse, no failed request.
        @Test func eightProcessesRenewOncePerExpiry() async throws {
            try await withFleet(expiries: 5) { fleet, server, expiry in
                let results = await fleet.burst(50)
                #expect(results.count == 8 && results.values.allSatisfy { $0 == "ok 50" }, "expiry \(expiry): \(results)")
                #expect(server.counters.renewals == expiry, "expiry \(expiry)")
            }
        }

        /// In each of 3 expiries the process that holds the refresh lock is SIGKILLed before it presents
        /// the refresh token: another renews, once; no family revocation. Every renewal pauses 4 s
        /// before presenting, the time this process has to read the holder's line and kill it (with
        /// 1.5 s, a loaded machine could be later, and the holder would present first).
        @Test func aKilledLockHolderIsReplacedWithoutADoubleRenewal() async throws {
            try await withFleet(expiries: 3, renewalPause: .seconds(4)) { fleet, server, expiry in
                let killed = Mutex<Int?>(nil)
                let results = await fleet.burst(50) { index, line in
                    guard line.hasPrefix("renewing") else { return }
                    let first = killed.withLock { victim in
                        defer { if victim == nil { victim = index } }
                        return victim == nil
                    }
                    if first { fleet.kill(index) }
                }
                let victim = try #require(killed.withLock { $0 }, "expiry \(expiry): no worker announced a renewal")
                #expect(results[victim] == nil)
                #expect(results.count == 8 - expiry && results.values.allSatisfy { $0 == "ok 50" }, "expiry \(expiry): \(results)")
                #expect(server.counters.renewals == expiry, "expiry \(expiry)")
            }
        }

        private func withFleet(expiries: Int, renewalPause: Duration? = nil, _ body: (WorkerFleet, AuthTestServer, Int) async throws -> Void) async throws {
            try await PostgresTestCluster.withCluster { cluster in
                try await AuthTestServer.withRunning { server in
                    try await HTTPClientTransport.withTransport { transport in
                        let account = AccountKey(namespace: "fleet", account: "service")
                        let seed = try await FleetInstance.make(cluster, server: server, transport: transport, account: account)
                        try await seed.client.signIn(try await FleetInstance.tokens(server, transport: transport, username: "service"))
                        let environment = renewalPause.map { ["AUTHKIT_WORKER_RENEWAL_PAUSE_MS": "\($0.milliseconds)"] } ?? [:]
                        let fleet = try WorkerFleet(count: 8, store: cluster.url, server: server.baseURL, account: "service", environment: environment)
                        let ready = await fleet.ready()
                        try #require(ready, "the workers did not start")
                        server.resetCounters()
                        for expiry in 1...expiries {
                            server.clock.advance(by: 301)
                            try await body(fleet, server, expiry)
                        }
                        #expect(server.counters.rejectedReuse == 0)
                        await fleet.quit()
                        await seed.store.close()
                    }
                }
            }
        }
    }
}
