// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthHTTPClient
@testable import AuthPostgresStore
import AuthTestServer
import AuthTesting
import Foundation
import Logging
import PostgresNIO
import Testing

extension PostgresSuites {
    /// The store through a real PgBouncer (Debian's) in front of a real PostgreSQL, in session and
    /// transaction pooling mode. Session mode keeps a server connection per client connection:
    /// everything works as on the server, the change feed included. Transaction mode lends a
    /// server connection per transaction: `LISTEN` lands on a connection that goes back to the
    /// pool, so the feed's probe never comes back; the store says so and reads through, and the
    /// refresh lock (transaction-scoped), the fenced writes and the migrations, each one
    /// transaction, keep renewal correct.
    @Suite(.serialized, .timeLimit(.minutes(8)))
    struct PgBouncerTests {
        /// 8 worker processes whose stores connect through PgBouncer, 50 concurrent requests each
        /// across 5 expiries: one renewal per expiry on the server, no refresh token presented
        /// twice, every request answered.
        @Test(arguments: PgBouncer.PoolMode.allCases)
        func eightProcessesRenewOncePerExpiry(mode: PgBouncer.PoolMode) async throws {
            try await PostgresTestCluster.withCluster { cluster in
                // In session mode every client connection holds a server connection while it is
                // open: the pool must hold the fleet's (9 pools of up to 20, PostgresNIO's default;
                // a burst of first reads opens them all); with fewer, a read waits for a server
                // connection past its deadline. The cluster takes 200.
                try await PgBouncer.withRunning(inFrontOf: cluster, mode: mode, poolSize: mode == .session ? 190 : 20) { bouncer in
                    try await AuthTestServer.withRunning { server in
                        try await HTTPClientTransport.withTransport { transport in
                            let account = AccountKey(namespace: "fleet", account: "service")
                            let seed = try await FleetInstance.make(configuration: try Self.configuration(bouncer), server: server, transport: transport, account: account)
                            try await seed.client.signIn(try await FleetInstance.tokens(server, transport: transport, username: "service"))
                            let fleet = try WorkerFleet(count: 8, store: bouncer.url, server: server.baseURL, account: "service")
                            let ready = await fleet.ready()
                            try #require(ready, "the workers did not start (\(mode) mode): \(bouncer.log.suffix(1_500))")
                            server.resetCounters()
                            for expiry in 1...5 {
                                server.clock.advance(by: 301)
                                let results = await fleet.burst(50)
                                #expect(results.count == 8 && results.values.allSatisfy { $0 == "ok 50" }, "\(mode) mode, expiry \(expiry): \(results)")
                                #expect(server.counters.renewals == expiry, "\(mode) mode, expiry \(expiry)")
                            }
                            #expect(server.counters.rejectedReuse == 0, "\(mode) mode")
                            #expect(seed.store.changeFeedStatus == (mode == .session ? .connected : .notDelivering), "\(mode) mode: \(seed.store.changeFeedStatus)")
                            await fleet.quit()
                            await seed.store.close()
                        }
                    }
                }
            }
        }

        /// In session mode the change feed works: a sign-out on one instance stops the other from
        /// sending the credential within 3 seconds, through the feed (the other reads through only
        /// every minute).
        @Test func inSessionModeASignOutArrivesThroughTheFeed() async throws {
            try await withPair(.session, "alice", .init(readThroughInterval: .seconds(60))) { _, server, transport, a, b in
                #expect(await eventually(within: .seconds(15)) { a.store.changeFeedStatus == .connected && b.store.changeFeedStatus == .connected }, "\(b.store.changeFeedStatus)")
                try await a.client.signIn(try await FleetInstance.tokens(server, transport: transport, username: "alice"))
                #expect(await b.me(server) == "200")
                try await a.client.signOut()
                let (elapsed, last) = await b.timeUntilSignedOut(server)
                #expect(elapsed != nil && elapsed! < .seconds(3), "the credential was sent for \(String(describing: elapsed)) (last: \(last))")
                #expect(b.store.isChangeFeedConnected)
            }
        }

        /// In transaction mode the feed's probe never comes back: the store says so (status, a
        /// warning naming the mode to use), keeps nothing in memory, so `get` returns what another
        /// instance wrote at once, and a sign-out elsewhere stops the other instance by its
        /// read-through bound.
        @Test func inTransactionModeTheStoreSaysTheFeedIsUnusableAndReadsThrough() async throws {
            let capture = CapturingLogHandler.Capture()
            try await withPair(.transaction, "bob", .init(readThroughInterval: .seconds(1))) { bouncer, server, transport, a, b in
                #expect(await eventually(within: .seconds(15)) { a.store.changeFeedStatus == .notDelivering && b.store.changeFeedStatus == .notDelivering }, "\(b.store.changeFeedStatus)")
                #expect(!b.store.isChangeFeedConnected)
                // A third store with a logger of ours: the warning names the cause and the cure.
                let logged = try await PostgresCredentialStore.open(configuration: try Self.configuration(bouncer), logger: Logger(label: "test") { _ in CapturingLogHandler(capture: capture) })
                #expect(await eventually(within: .seconds(15)) { logged.changeFeedStatus == .notDelivering })
                let warnings = capture.all.filter { $0.level == .warning }.map(\.message)
                #expect(warnings.contains { $0.contains("transaction mode") && $0.contains("session pooling") }, "\(warnings)")
                await logged.close()

                let key = AccountKey(namespace: "n", account: "records").item("credential")
                let first = Envelope(kind: "bearer", payload: Data("one".utf8), updatedAt: Date(timeIntervalSince1970: 1_700_000_000))
                let second = Envelope(kind: "bearer", payload: Data("two".utf8), updatedAt: Date(timeIntervalSince1970: 1_700_000_001))
                try await a.store.put(first, for: key)
                #expect(try await b.store.get(key) == first)
                #expect(try await b.store.get(key) == first)
                try await a.store.put(second, for: key)
                #expect(try await b.store.get(key) == second)  // at once: nothing was kept
                try await a.store.delete(key)
                #expect(try await b.store.get(key) == nil)

                try await a.client.signIn(try await FleetInstance.tokens(server, transport: transport, username: "bob"))
                #expect(await b.me(server) == "200")
                try await a.client.signOut()
                let (elapsed, last) = await b.timeUntilSignedOut(server)
                // The bound is the read-through interval (1 s) plus one read; the margin is for a
                // loaded 2-core machine. Without reading through it would be sent until the limit.
                #expect(elapsed != nil && elapsed! < .seconds(6), "read through at 1 s, yet the credential was sent for \(String(describing: elapsed)) (last: \(last))")
                #expect(b.store.changeFeedStatus == .notDelivering)
            }
        }

        /// The feed fails closed: when its probe does not come back (sent here to a channel nobody
        /// listens on, as a pooler would lose it), it reports `notDelivering` and keeps nothing in
        /// memory; the same feed whose probe arrives keeps what it is given.
        @Test func aFeedWhoseProbeDoesNotArriveKeepsNothing() async throws {
            try await PostgresTestCluster.withCluster { cluster in
                let client = PostgresClient(configuration: PostgresSuites.PostgresCredentialStoreTests.configuration(cluster))
                let running = Task { await client.run() }
                defer { running.cancel() }
                let options = PostgresChangeFeedOptions(probeTimeout: .milliseconds(500))
                let deaf = PostgresChangeFeed(options: options, channel: "authkit_probe_test", sendTimeout: .seconds(10), misdirectedProbe: "authkit_probe_nowhere")
                let hearing = PostgresChangeFeed(options: options, channel: "authkit_probe_test", sendTimeout: .seconds(10))
                deaf.start(client: client, logger: Logger(label: "deaf"))
                hearing.start(client: client, logger: Logger(label: "hearing"))
                #expect(await eventually(within: .seconds(10)) { deaf.status == .notDelivering && hearing.status == .connected }, "\(deaf.status); \(hearing.status)")
                let key = AccountKey(namespace: "n", account: "a").item("credential")
                let envelope = Envelope(kind: "bearer", payload: Data("one".utf8), updatedAt: Date(timeIntervalSince1970: 1_700_000_000))
                deaf.remember(envelope, at: key, since: deaf.epoch)
                hearing.remember(envelope, at: key, since: hearing.epoch)
                #expect(deaf.cached(key) == nil)
                #expect(hearing.cached(key) == .some(.some(envelope)))
                #expect(!deaf.isConnected)
                deaf.stop()
                hearing.stop()
            }
        }

        /// Instances a (default feed) and b (`options`) of one account, each with its own pool
        /// through a PgBouncer in `mode`; `body` runs, then both stores are closed.
        private func withPair(_ mode: PgBouncer.PoolMode, _ username: String, _ options: PostgresChangeFeedOptions, _ body: (PgBouncer, AuthTestServer, HTTPClientTransport, FleetInstance, FleetInstance) async throws -> Void) async throws {
            try await PostgresTestCluster.withCluster { cluster in
                try await PgBouncer.withRunning(inFrontOf: cluster, mode: mode) { bouncer in
                    try await AuthTestServer.withRunning { server in
                        try await HTTPClientTransport.withTransport { transport in
                            let account = AccountKey(namespace: "fleet", account: username)
                            let configuration = try Self.configuration(bouncer)
                            let a = try await FleetInstance.make(configuration: configuration, server: server, transport: transport, account: account)
                            let b = try await FleetInstance.make(configuration: configuration, server: server, transport: transport, account: account, changeFeed: options)
                            try await body(bouncer, server, transport, a, b)
                            await a.store.close()
                            await b.store.close()
                        }
                    }
                }
            }
        }

        static func configuration(_ bouncer: PgBouncer) throws -> PostgresClient.Configuration {
            try #require(try PostgresCredentialStore.configuration(url: bouncer.url))
        }
    }
}
