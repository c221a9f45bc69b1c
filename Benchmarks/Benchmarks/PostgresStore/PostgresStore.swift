// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

// AuthPostgresStore (issue 21), on a private PostgreSQL cluster this suite starts (Debian's
// `postgresql`, as the tests do), each paired in the same iteration with its baseline:
// - `get` served from memory (change feed connected) against a raw postgres-nio query of the same
//   row;
// - `get` read from the database (a store without a change feed) against the same raw query;
// - a fleet renewal: 8 instances (each its own pool, container and session) × 50 concurrent
//   requests right after an expiry (one renewal across the fleet, the others adopting it through
//   the lock and the change feed) against the same 400 requests with a valid credential.
import AuthCore
import AuthHTTPClient
import AuthOAuth2
import AuthPostgresStore
import AuthTestServer
import AuthTesting
import Benchmark
import BenchmarkSupport
import Foundation
import PostgresNIO
import Synchronization

let key = AccountKey(namespace: "bench", account: "alice").item("credential")
let envelope = Envelope(kind: "bearer", payload: Data(repeating: 0x61, count: 600), updatedAt: Date(timeIntervalSince1970: 1_700_000_000))

func configuration(_ cluster: PostgresTestCluster) -> PostgresClient.Configuration {
    PostgresClient.Configuration(host: "127.0.0.1", port: cluster.port, username: "authkit", password: nil, database: "postgres", tls: .disable)
}

/// The raw postgres-nio read of the row `get` returns.
func rawRead(_ client: PostgresClient) async throws -> Int {
    var found = 0
    let rows = try await client.query("SELECT format_version, kind, payload, updated_at, expires_at FROM authkit_credentials WHERE namespace = \(Data(key.namespace.utf8)) AND account = \(Data(key.account.utf8)) AND item = \(Data(key.item.utf8))")
    for try await (version, _, payload, _, _) in rows.decode((Int, String, Data, Double, Double?).self) { found += version + payload.count }
    return found
}

/// A cluster, a store with the change feed, one without, and a raw client, all on one row.
struct Stores: Sendable {
    let cluster: PostgresTestCluster
    let cached: PostgresCredentialStore
    let direct: PostgresCredentialStore
    let raw: PostgresClient
    let rawRunner: Task<Void, Never>

    static func start() async throws -> Stores {
        let cluster = try await PostgresTestCluster.start()
        let cached = try await PostgresCredentialStore.open(configuration: configuration(cluster))
        let direct = try await PostgresCredentialStore.open(configuration: configuration(cluster), options: .init(changeFeed: nil))
        let raw = PostgresClient(configuration: configuration(cluster))
        let rawRunner = Task { await raw.run() }
        try await cached.put(envelope, for: key)
        while !cached.isChangeFeedConnected { try await Task.sleep(for: .milliseconds(10)) }
        return Stores(cluster: cluster, cached: cached, direct: direct, raw: raw, rawRunner: rawRunner)
    }

    func stop() async {
        await cached.close()
        await direct.close()
        rawRunner.cancel()
        await cluster.stop()
    }
}

/// Eight instances of one account against AuthTestServer, each its own pool and session.
struct Fleet: Sendable {
    let cluster: PostgresTestCluster
    let server: AuthTestServer
    let transport: HTTPClientTransport
    let clients: [AccountClient<BearerStrategy>]
    let stores: [PostgresCredentialStore]

    static func start() async throws -> Fleet {
        let cluster = try await PostgresTestCluster.start()
        let server = AuthTestServer()
        try await server.start()
        let transport = HTTPClientTransport()
        let account = AccountKey(namespace: "fleet", account: "service")
        var clients: [AccountClient<BearerStrategy>] = []
        var stores: [PostgresCredentialStore] = []
        for _ in 0..<8 {
            let container = AuthContainer()
            container.useHTTPClient(transport)
            container.override(RenewalPolicyKey.self, with: RenewalPolicy(maxRenewals: 1_000_000, window: .seconds(1)))
            stores.append(try await container.usePostgresStore(configuration(cluster)))
            let refresher = OAuth2RefreshTokenRefresher(tokenEndpoint: server.baseURL.appending(path: "auth/refresh"), clientID: "fleet", transport: transport)
            clients.append(container.makeClient(for: account, strategy: BearerStrategy(allowedHosts: AllowedHosts(origin: server.baseURL), refresher: refresher)))
        }
        let body = try JSONEncoder().encode(["username": "service", "password": "correct horse battery staple"])
        _ = try await transport.send(AuthRequest(method: .post, url: server.baseURL.appending(path: "auth/register"), headerFields: [.contentType: "application/json"], body: body))
        let login = try await transport.send(AuthRequest(method: .post, url: server.baseURL.appending(path: "auth/login"), headerFields: [.contentType: "application/json"], body: body))
        try await clients[0].signIn(try TokenResponse.parse(login.body).tokenSet(issuedAt: server.clock.now()))
        return Fleet(cluster: cluster, server: server, transport: transport, clients: clients, stores: stores)
    }

    /// 50 concurrent requests from each instance; throws unless all got 200.
    func burst() async throws {
        let me = server.baseURL.appending(path: "me")
        let ok = try await withThrowingTaskGroup(of: Bool.self) { group in
            for client in clients {
                for _ in 0..<50 { group.addTask { try await client.send(.get, me).status.code == 200 } }
            }
            return try await group.reduce(true) { $0 && $1 }
        }
        guard ok else { throw BenchmarkFailure("a request of the fleet failed") }
    }

    func stop() async {
        for store in stores { await store.close() }
        try? await transport.shutdown()
        await server.stop()
        await cluster.stop()
    }
}

/// What the running benchmark's setup started, stopped by its teardown.
enum Cleanup {
    private static let actions = Mutex<[@Sendable () async -> Void]>([])
    static func add(_ action: @escaping @Sendable () async -> Void) { actions.withLock { $0.append(action) } }
    static func run() async {
        for action in actions.withLock({ list in defer { list.removeAll() }; return list }) { await action() }
    }
}

struct BenchmarkFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// `get` on one of the stores against the raw query of the same row, in the same iteration.
func getBenchmark(_ title: String, _ configuration: Benchmark.Configuration, _ store: KeyPath<Stores, PostgresCredentialStore> & Sendable) {
    Benchmark(title, configuration: configuration) { (benchmark: Benchmark, stores: Stores) in
        let subject = stores[keyPath: store]
        try await Paired.measure(benchmark) {
            for _ in benchmark.scaledIterations { blackHole(try await rawRead(stores.raw)) }
        } subject: {
            for _ in benchmark.scaledIterations { blackHole(try await subject.get(key)) }
        }
    } setup: {
        let stores = try await Stores.start()
        Cleanup.add { await stores.stop() }
        return stores
    } teardown: {
        await Cleanup.run()
    }
}

let benchmarks: @Sendable () -> Void = {
    var paired = Benchmark.Configuration.suite(.microseconds, scaling: .one, warmup: 20, maxDuration: .seconds(3), maxIterations: 2_000)
    paired.metrics = Paired.metrics

    getBenchmark("PostgreSQL get from memory (change feed) vs a raw postgres-nio query of the row", paired, \.cached)
    getBenchmark("PostgreSQL get read from the database (no change feed) vs a raw postgres-nio query of the row", paired, \.direct)

    var fleet = Benchmark.Configuration.suite(.milliseconds, scaling: .one, warmup: 2, maxDuration: .seconds(20), maxIterations: 40)
    fleet.metrics = Paired.metrics
    Benchmark("Fleet renewal: 8 instances x 50 requests across an expiry vs the same requests with a valid credential", configuration: fleet) { (benchmark: Benchmark, fleet: Fleet) in
        try await Paired.measure(benchmark) {
            try await fleet.burst()
        } subject: {
            fleet.server.clock.advance(by: 301)
            try await fleet.burst()
        }
    } setup: {
        let fleet = try await Fleet.start()
        Cleanup.add { await fleet.stop() }
        return fleet
    } teardown: {
        await Cleanup.run()
    }
}
