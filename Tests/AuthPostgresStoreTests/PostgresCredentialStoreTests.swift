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
import AuthTestServer
import AuthTesting
import Foundation
import Logging
import PostgresNIO
import Synchronization
import Testing

extension PostgresSuites {
    /// The PostgreSQL store against a real server the tests start (``PostgresTestCluster``).
    @Suite(.serialized, .timeLimit(.minutes(3)))
    struct PostgresCredentialStoreTests {
        static func configuration(_ cluster: PostgresTestCluster) -> PostgresClient.Configuration {
            PostgresClient.Configuration(host: "127.0.0.1", port: cluster.port, username: "authkit", password: nil, database: "postgres", tls: .disable)
        }

        @Test func theConformanceSuitePasses() async throws {
            try await PostgresTestCluster.withCluster { cluster in
                var opened: [PostgresCredentialStore] = []
                let passed = try await CredentialStoreConformance.run {
                    let store = try await PostgresCredentialStore.open(configuration: Self.configuration(cluster))
                    try await store.deleteAll()
                    opened.append(store)
                    return store
                }
                #expect(passed == CredentialStoreConformance.checkNames)
                for store in opened { await store.close() }
            }
        }

        /// A replace expecting no record that waits for another transaction's uncommitted insert
        /// of the same key fails once that insert commits, and leaves the inserted record (a
        /// `SELECT … FOR UPDATE` locks no row that does not exist yet: an upsert after it
        /// overwrote the record, and both writers believed they held the renewal lease).
        @Test func aReplaceFromNoRecordLosesToTheInsertItWaitedFor() async throws {
            try await PostgresTestCluster.withCluster { cluster in
                let store = try await PostgresCredentialStore.open(configuration: Self.configuration(cluster), options: .init(changeFeed: nil))
                let key = AccountKey(namespace: "n", account: "a").item("lease")
                let theirs = Envelope(kind: "lease", payload: Data("theirs".utf8), updatedAt: Date(timeIntervalSince1970: 1_700_000_000))
                let ours = Envelope(kind: "lease", payload: Data("ours".utf8), updatedAt: Date(timeIntervalSince1970: 1_700_000_001))
                let logger = Logger(label: "raw-insert")
                let raw = try await PostgresConnection.connect(
                    configuration: .init(host: "127.0.0.1", port: cluster.port, username: "authkit", password: nil, database: "postgres", tls: .disable), id: 1, logger: logger)
                try await raw.query("BEGIN", logger: logger)
                try await raw.query(
                    """
                    INSERT INTO authkit_credentials (namespace, account, item, format_version, kind, payload, updated_at, expires_at)
                    VALUES (\(Data(key.namespace.utf8)), \(Data(key.account.utf8)), \(Data(key.item.utf8)), \(theirs.formatVersion), \(theirs.kind), \(theirs.payload), \(theirs.updatedAt.timeIntervalSince1970), NULL)
                    """,
                    logger: logger)
                let replacing = Task { try await store.replace(key, ifCurrent: nil, with: ours) }
                let waits = await eventually {
                    let rows = try? await store.client.query("SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND wait_event_type = 'Lock'", logger: logger)
                    guard let rows, let count = try? await rows.decode(Int.self).first(where: { _ in true }) else { return false }
                    return count > 0
                }
                #expect(waits, "the replace did not wait for the uncommitted insert")
                try await raw.query("COMMIT", logger: logger)
                #expect(try await replacing.value == false, "a replace expecting no record overwrote a record inserted meanwhile")
                #expect(try await store.get(key) == theirs)
                try await raw.close()
                await store.close()
            }
        }

        /// Instances starting together migrate once; a schema from newer code is a typed error.
        @Test func instancesMigrateOnceAndRefuseANewerSchema() async throws {
            try await PostgresTestCluster.withCluster { cluster in
                let stores = try await withThrowingTaskGroup(of: PostgresCredentialStore.self) { group in
                    for _ in 0..<6 { group.addTask { try await PostgresCredentialStore.open(configuration: Self.configuration(cluster)) } }
                    return try await group.reduce(into: [PostgresCredentialStore]()) { $0.append($1) }
                }
                var migrations = 0
                for try await count in try await stores[0].client.query("SELECT count(*) FROM authkit_schema_migrations").decode(Int.self) { migrations = count }
                #expect(migrations == 3)
                try await stores[0].client.query("INSERT INTO authkit_schema_migrations (id) VALUES (99)")
                await #expect { try await PostgresCredentialStore.open(configuration: Self.configuration(cluster)) } throws: { ($0 as? CredentialStoreError)?.code == .incompatibleVersion }
                for store in stores { await store.close() }
            }
        }

        /// Two "machines" (each its own pool, coordinator and session) on one database, against
        /// AuthTestServer's rotating refresh tokens: 50 concurrent requests each across three
        /// expiries renew once per expiry, and no refresh token is presented twice.
        @Test func twoMachinesRenewOncePerExpiry() async throws {
            try await PostgresTestCluster.withCluster { cluster in
                try await AuthTestServer.withRunning { server in
                    try await HTTPClientTransport.withTransport { transport in
                        let account = AccountKey(namespace: "fleet", account: "service")
                        let refresher = OAuth2RefreshTokenRefresher(tokenEndpoint: server.baseURL.appending(path: "auth/refresh"), clientID: "fleet", transport: transport)
                        var machines: [(AccountClient<BearerStrategy>, PostgresCredentialStore)] = []
                        for _ in 0..<2 {
                            let container = AuthContainer()
                            container.useHTTPClient(transport)
                            let store = try await container.usePostgresStore(Self.configuration(cluster))
                            machines.append((container.makeClient(for: account, strategy: BearerStrategy(allowedHosts: AllowedHosts(origin: server.baseURL), refresher: refresher)), store))
                        }
                        let register = try AuthRequest(method: .post, url: server.baseURL.appending(path: "auth/register"), headerFields: [.contentType: "application/json"], body: JSONEncoder().encode(["username": "svc", "password": "correct horse battery staple"]))
                        _ = try await transport.send(register)
                        let login = try AuthRequest(method: .post, url: server.baseURL.appending(path: "auth/login"), headerFields: [.contentType: "application/json"], body: JSONEncoder().encode(["username": "svc", "password": "correct horse battery staple"]))
                        let tokens = try TokenResponse.parse(try await transport.send(login).body).tokenSet(issuedAt: server.clock.now())
                        try await machines[0].0.signIn(tokens)
                        server.resetCounters()
                        for expiry in 1...3 {
                            server.clock.advance(by: 301)
                            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                                for index in 0..<100 {
                                    let client = machines[index % 2].0
                                    group.addTask { try await client.send(.get, server.baseURL.appending(path: "me")).status.code }
                                }
                                return try await group.reduce(into: [Int]()) { $0.append($1) }
                            }
                            #expect(statuses.allSatisfy { $0 == 200 }, "expiry \(expiry)")
                            #expect(server.counters.renewals == expiry, "expiry \(expiry)")
                        }
                        #expect(server.counters.rejectedReuse == 0)
                        for (_, store) in machines { await store.close() }
                    }
                }
            }
        }

        /// A renewal that waits for another machine's lock longer than the lock timeout gets a typed
        /// unavailable error (not "signed out"); it gets the lock as soon as it is released otherwise.
        @Test func theRefreshLockTimesOutAsUnavailableAndIsHandedOverAtOnce() async throws {
            try await PostgresTestCluster.withCluster { cluster in
                let holder = try await PostgresCredentialStore.open(configuration: Self.configuration(cluster), options: .init(changeFeed: nil))
                let impatient = try await PostgresCredentialStore.open(configuration: Self.configuration(cluster), options: .init(lockTimeout: .milliseconds(300), changeFeed: nil))
                let patient = try await PostgresCredentialStore.open(configuration: Self.configuration(cluster), options: .init(lockTimeout: .seconds(20), changeFeed: nil))
                let account = AccountKey(namespace: "n", account: "a")
                let (held, holding) = AsyncStream<Void>.makeStream()
                // The holder keeps the lock until the impatient store has given up (a fixed
                // second was not always enough for it to try, at a full run's loaded start).
                let (release, releasing) = AsyncStream<Void>.makeStream()
                let clock = ContinuousClock()
                let releasedAt = Mutex<ContinuousClock.Instant?>(nil)
                let holdingTask = Task {
                    try await holder.withRefreshLock(for: account) {
                        holding.yield()
                        for await _ in release { break }
                        releasedAt.withLock { $0 = clock.now }
                    }
                }
                for await _ in held { break }
                await #expect { try await impatient.withRefreshLock(for: account) {} } throws: { error in
                    guard let error = error as? CredentialStoreError else { return false }
                    return error.code == .unavailable && error.message.contains("held the refresh lock")
                }
                let waiting = Task { try await patient.withRefreshLock(for: account) { clock.now } }
                try await Task.sleep(for: .milliseconds(300))  // the patient store waits at the server
                releasing.yield()
                let acquiredAt = try await waiting.value
                try await holdingTask.value
                let released = try #require(releasedAt.withLock { $0 })
                #expect(acquiredAt >= released, "the waiter got the lock while it was held")
                // At once, not at the end of its 20 s lock timeout: the server hands the lock over
                // (2 s allows for two resumptions on a loaded machine's pool).
                #expect(acquiredAt - released < .seconds(2), "the waiter got the lock \(acquiredAt - released) after its release")
                // Another account's lock is independent.
                #expect(try await impatient.withRefreshLock(for: AccountKey(namespace: "n", account: "b")) { true })
                for store in [holder, impatient, patient] { await store.close() }
            }
        }

        /// What the store and postgres-nio log, at trace level, never holds a credential: values
        /// go to the server as bound parameters.
        @Test func nothingLoggedHoldsASecret() async throws {
            try await PostgresTestCluster.withCluster { cluster in
                let capture = CapturingLogHandler.Capture()
                var logger = Logger(label: "store") { _ in CapturingLogHandler(capture: capture) }
                logger.logLevel = .trace
                let store = try await PostgresCredentialStore.open(configuration: Self.configuration(cluster), logger: logger)
                let key = AccountKey(namespace: "n", account: "a").item("credential")
                let first = Envelope(kind: "bearer", payload: Data("s3cret-first-token".utf8), updatedAt: Date(timeIntervalSince1970: 1_700_000_000))
                let second = Envelope(kind: "bearer", payload: Data("s3cret-second-token".utf8), updatedAt: Date(timeIntervalSince1970: 1_700_000_001))
                try await store.put(first, for: key)
                #expect(try await store.get(key) == first)
                #expect(try await store.withRefreshLock(for: key.accountKey) { try await store.replace(key, ifCurrent: first, with: second) })
                try await store.delete(key)
                #expect(await eventually { !capture.all.isEmpty })
                #expect(!capture.text.contains("s3cret"))
                await store.close()
            }
        }
    }
}