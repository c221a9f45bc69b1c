// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthHTTPClient
import AuthOAuth2
import AuthPostgresStore
import AuthTesting
import Foundation
import Logging
import PostgresNIO
import Synchronization
import Testing

/// Issue 50: a fleet survives its database. Four worker processes (`auth-store-worker`) share one
/// real PostgreSQL store and renew against Authlib's OAuth 2.0 server with rotating refresh
/// tokens and reuse detection (`Interop/authlib_provider.py`: a rotated refresh token presented
/// again revokes the whole family). While one worker renews, stopped at one step of the renewal,
/// the database meets each fault a deployment meets.
@Suite(.serialized, .enabled(if: InteropPeer.shouldRun, InteropPeer.disabledNote), .timeLimit(.minutes(12)))
struct FleetFaultTests {
    /// Where the renewing worker is when the fault happens.
    enum Step: String, CaseIterable {
        /// Holding the lease, before it presents the refresh token.
        case beforeTheTokenRequest
        /// After the token endpoint answered, before the result is written.
        case afterTheAnswerBeforeTheWrite
        /// Its write is in the database (held there by a row lock the test takes) when the fault
        /// happens.
        case duringTheWrite
    }

    /// What happens to the database.
    enum Fault: String, CaseIterable {
        /// `pg_ctl restart -m fast`: every session (and advisory lock) ends; back in about a second.
        case restart
        /// Every backend terminated (`pg_terminate_backend`).
        case backendsTerminated
        /// `default_transaction_read_only` and every backend terminated, for 3 s: a failover to
        /// a standby.
        case readOnly
        /// The server stopped for 15 s.
        case stopped
        /// Every server process stopped with SIGSTOP for 5 s: the network cut.
        case frozen

        /// How long the fault lasts.
        var duration: Duration {
            switch self {
            case .restart, .backendsTerminated: .zero
            case .readOnly: .seconds(3)
            case .stopped: .seconds(15)
            case .frozen: .seconds(5)
            }
        }

        func begin(_ cluster: PostgresTestCluster) async throws {
            switch self {
            case .restart: try await cluster.restart()
            case .backendsTerminated: try await cluster.terminateBackends()
            case .readOnly: try await cluster.setReadOnly(true)
            case .stopped: try await cluster.pause()
            case .frozen: try cluster.freeze()
            }
        }

        func end(_ cluster: PostgresTestCluster) async throws {
            switch self {
            case .restart, .backendsTerminated: return
            case .readOnly: try await cluster.setReadOnly(false)
            case .stopped: try await cluster.resume()
            case .frozen: try cluster.thaw()
            }
        }
    }

    static let account = AccountKey(namespace: "fleet", account: "alice")

    /// Every fault at every step: the provider counts no refresh token presented twice, no worker
    /// is signed out or told to sign in again (a request that failed meanwhile failed with a typed
    /// storage error), every request finishes, the record is never lost, and the whole fleet
    /// serves again within seconds of the recovery.
    @Test func everyFaultAtEveryStepOfARenewalSignsNobodyOutAndReusesNothing() async throws {
        try await PostgresTestCluster.withCluster { cluster in
            try await InteropPeer.run("authlib_provider.py", accessSeconds: 300, renewedAccessSeconds: 300) { peer in
                try await HTTPClientTransport.withTransport { transport in
                    let store = try await PostgresCredentialStore.open(configuration: try #require(try PostgresCredentialStore.configuration(url: cluster.url)))
                    let container = AuthContainer()
                    container.useHTTPClient(transport)
                    container.override(CredentialStoreKey.self, with: store)
                    let issued = try await transport.send(AuthRequest(method: .post, url: peer.url("_issue"), headerFields: [.contentType: "application/x-www-form-urlencoded"], body: Data("subject=alice".utf8)))
                    let refresher = OAuth2RefreshTokenRefresher(tokenEndpoint: peer.url("oauth/token"), clientID: "app", transport: transport)
                    let seed = container.makeClient(for: Self.account, strategy: BearerStrategy(allowedHosts: AllowedHosts(origin: peer.base), refresher: refresher))
                    try await seed.signIn(try TokenResponse.parse(issued.body).tokenSet(issuedAt: Date()))

                    let fleet = try WorkerFleet(count: 4, store: cluster.url, server: peer.base, account: Self.account.account, environment: [
                        "AUTHKIT_WORKER_TOKEN_PATH": "oauth/token", "AUTHKIT_WORKER_CLIENT_ID": "app", "AUTHKIT_WORKER_ME_PATH": "api/me",
                    ])
                    try #require(await fleet.ready(), "the workers did not start")
                    #expect(await fleet.burst(10).values.allSatisfy { $0 == "ok 10" })

                    for step in Step.allCases {
                        for fault in Fault.allCases {
                            try await round(step: step, fault: fault, fleet: fleet, cluster: cluster, peer: peer, transport: transport, store: store)
                        }
                    }
                    let counters = try await peer.counters(transport)
                    #expect(counters["refresh_token_reuse"] == 0, "\(counters.counts)")
                    await fleet.quit()
                    await store.close()
                }
            }
        }
    }

    /// One fault at one step, then the checks.
    private func round(step: Step, fault: Fault, fleet: WorkerFleet, cluster: PostgresTestCluster, peer: InteropPeer, transport: HTTPClientTransport, store: PostgresCredentialStore) async throws {
        let name = "\(fault) \(step)"
        let grantsBefore = try await peer.counters(transport)["refresh_token_grants"]
        switch step {
        case .beforeTheTokenRequest: fleet.send("pause before \((fault.duration + .seconds(2)).milliseconds)")
        case .afterTheAnswerBeforeTheWrite: fleet.send("pause after \((fault.duration + .seconds(2)).milliseconds)")
        case .duringTheWrite: fleet.send("pause after 0")
        }
        let rowLock = step == .duringTheWrite ? try await RowLock.take(cluster, account: Self.account) : nil
        // Every access token ends at the provider: the next request of every worker is refused,
        // and the fleet renews (once).
        _ = try await transport.send(AuthRequest(method: .post, url: peer.url("_expire")))
        let announced = AsyncStream<Int>.makeStream()
        let holder = Mutex<Int?>(nil)
        fleet.send("go 10")
        // Every worker answers its first burst; the others also a second one, sent when the fault
        // is over while the holder may still be at its step (they then take the refresh lock the
        // fault released, and must not present the refresh token the holder presents).
        let collecting = Task {
            await fleet.collect(within: .seconds(150), onLine: { index, line in
                if line.hasPrefix("renewing") || line.hasPrefix("renewed") { announced.continuation.yield(index) }
            }, until: { results in
                guard let holder = holder.withLock({ $0 }) else { return false }
                return (0..<4).allSatisfy { (results[$0]?.count ?? 0) >= ($0 == holder ? 1 : 2) }
            })
        }
        var announcements = announced.stream.makeAsyncIterator()
        let first = await announcements.next()
        let renewing = try #require(first, "\(name): no worker renewed")
        holder.withLock { $0 = renewing }
        if step == .duringTheWrite { try await Task.sleep(for: .milliseconds(300)) }  // its write waits for the row
        try await fault.begin(cluster)
        try await Task.sleep(for: fault.duration)
        try await fault.end(cluster)
        await rowLock?.release()
        for index in 0..<4 where index != renewing { fleet.send("go 10", to: index) }
        let results = await collecting.value
        announced.continuation.finish()
        fleet.send("pause off")

        #expect(results.count == 4 && (0..<4).allSatisfy { (results[$0]?.count ?? 0) >= ($0 == renewing ? 1 : 2) }, "\(name): workers that did not finish: \(results)")
        for (worker, answers) in results {
            for answer in answers where answer != "ok 10" {
                let failures = answer.split(separator: " ").dropFirst(2).first.map { $0.split(separator: ",").map(String.init) } ?? [answer]
                #expect(failures.allSatisfy { $0 == AuthError.Code.storage.description }, "\(name): worker \(worker): \(answer)")
            }
        }
        // Serving again within seconds of the recovery.
        let recovered = ContinuousClock.now
        var last: [Int: String] = [:]
        while ContinuousClock.now - recovered < .seconds(30) {
            last = await fleet.burst(10, within: .seconds(60))
            if last.count == 4, last.values.allSatisfy({ $0 == "ok 10" }) { break }
            try await Task.sleep(for: .milliseconds(500))
        }
        #expect(last.count == 4 && last.values.allSatisfy { $0 == "ok 10" }, "\(name): after the recovery: \(last)")
        let counters = try await peer.counters(transport)
        #expect(counters["refresh_token_reuse"] == 0, "\(name): \(counters.counts)")
        #expect(counters["refresh_token_grants"] > grantsBefore, "\(name): no renewal")
        #expect(try await store.get(Self.account.item(CredentialVault.credentialItem)) != nil, "\(name): the record is gone")
    }

}

/// A row lock on an account's credential record, held by a transaction of the test's own, so
/// that a renewal's write of that record waits in the database.
private final class RowLock: Sendable {
    let connection: PostgresConnection

    private init(connection: PostgresConnection) { self.connection = connection }

    static func take(_ cluster: PostgresTestCluster, account: AccountKey) async throws -> RowLock {
        let configuration = PostgresConnection.Configuration(host: "127.0.0.1", port: cluster.port, username: "authkit", password: nil, database: "postgres", tls: .disable)
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: Logger(label: "row-lock"))
        for try await _ in try await connection.query("BEGIN", logger: Logger(label: "row-lock")) {}
        let namespace = Data(account.namespace.utf8), name = Data(account.account.utf8), item = Data(CredentialVault.credentialItem.utf8)
        for try await _ in try await connection.query("SELECT 1 FROM authkit_credentials WHERE namespace = \(namespace) AND account = \(name) AND item = \(item) FOR UPDATE", logger: Logger(label: "row-lock")) {}
        return RowLock(connection: connection)
    }

    /// Ends the transaction (a fault may have ended it already, and a frozen server may not
    /// answer: the connection is then closed without waiting).
    func release() async {
        let connection = self.connection
        let ended = Task {
            _ = try? await connection.query("ROLLBACK", logger: Logger(label: "row-lock"))
            try? await connection.close()
        }
        try? await Task.sleep(for: .seconds(1))
        ended.cancel()
    }
}

