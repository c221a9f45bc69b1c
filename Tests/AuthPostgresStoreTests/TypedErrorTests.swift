// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthPostgresStore
import AuthTesting
import Foundation
import Synchronization
import PostgresNIO
import Testing

extension PostgresSuites {
    /// Each kind of store failure over a real server, typed by its cause: what may pass
    /// (`unavailable`, `readOnly`) apart from what a person must mend (`misconfigured`,
    /// `invalidArgument`), each message naming what failed and never a secret or a value.
    @Suite(.serialized, .timeLimit(.minutes(4)))
    struct TypedErrorTests {
        static func configuration(_ cluster: PostgresTestCluster, user: String = "authkit", password: String? = nil) -> PostgresClient.Configuration {
            PostgresClient.Configuration(host: "127.0.0.1", port: cluster.port, username: user, password: password, database: "postgres", tls: .disable)
        }

        static let record = Envelope(kind: "bearer", payload: Data("s3cret-token".utf8), updatedAt: Date(timeIntervalSince1970: 1_700_000_000))
        static let key = AccountKey(namespace: "n", account: "alice").item("credential")

        /// The error `body` throws, as a `CredentialStoreError` (nil when it throws none, or
        /// another type).
        static func storeError(_ body: () async throws -> Void) async -> CredentialStoreError? {
            do {
                try await body()
                return nil
            } catch {
                return error as? CredentialStoreError
            }
        }

        /// A wrong password is a configuration error, told at open as soon as the server refuses
        /// it, not an outage to wait out or retry forever; the message names the SQLSTATE, never the password.
        @Test func aWrongPasswordIsMisconfigured() async throws {
            try await PostgresTestCluster.withCluster { cluster in
                try await cluster.createRole("app", password: "right-h0rse")
                try await cluster.requirePassword(for: "app")
                let clock = ContinuousClock()
                let started = clock.now
                let error = await Self.storeError {
                    let store = try await PostgresCredentialStore.open(configuration: Self.configuration(cluster, user: "app", password: "wr0ng-h0rse"), options: .init(operationTimeout: .seconds(30), changeFeed: nil))
                    await store.close()
                }
                let took = clock.now - started
                #expect(error?.code == .misconfigured, "\(String(describing: error))")
                #expect(error?.message.contains("28P01") == true, "\(String(describing: error))")
                #expect(!"\(String(describing: error))".contains("h0rse"))
                // At once, not at the operation timeout (30 s) as a wait that may pass would.
                #expect(took < .seconds(10), "opening took \(took)")
                // The right password opens (a role that may not create tables opens read-only).
                let store = try await PostgresCredentialStore.open(configuration: Self.configuration(cluster))
                try await cluster.grantReadOnly(to: "app")
                let reader = try await PostgresCredentialStore.open(configuration: Self.configuration(cluster, user: "app", password: "right-h0rse"), options: .init(changeFeed: nil, readOnly: true))
                #expect(try await reader.get(Self.key) == nil)
                await reader.close()
                await store.close()
            }
        }

        /// A role without the privileges the store needs is misconfigured, read-write (it may not
        /// create the tables) as well as read-only (it may not read them), and the message says so.
        @Test func aMissingPrivilegeIsMisconfigured() async throws {
            try await PostgresTestCluster.withCluster { cluster in
                let owner = try await PostgresCredentialStore.open(configuration: Self.configuration(cluster), options: .init(changeFeed: nil))
                try await owner.put(Self.record, for: Self.key)
                try await cluster.createRole("nobody")
                let writing = await Self.storeError { _ = try await PostgresCredentialStore.open(configuration: Self.configuration(cluster, user: "nobody"), options: .init(changeFeed: nil)) }
                #expect(writing?.code == .misconfigured && writing?.message.contains("42501") == true, "\(String(describing: writing))")
                #expect(writing?.message.contains("readOnly") == true, "the message points to the read-only option: \(String(describing: writing))")
                let reading = await Self.storeError { _ = try await PostgresCredentialStore.open(configuration: Self.configuration(cluster, user: "nobody"), options: .init(changeFeed: nil, readOnly: true)) }
                #expect(reading?.code == .misconfigured && reading?.message.contains("42501") == true, "\(String(describing: reading))")
                #expect(try await owner.get(Self.key) == Self.record)
                await owner.close()
            }
        }

        /// A database that does not exist is misconfigured (3D000).
        @Test func aMissingDatabaseIsMisconfigured() async throws {
            try await PostgresTestCluster.withCluster { cluster in
                var configuration = Self.configuration(cluster)
                configuration.database = "no_such_database"
                let error = await Self.storeError { _ = try await PostgresCredentialStore.open(configuration: configuration, options: .init(operationTimeout: .seconds(2), changeFeed: nil)) }
                #expect(error?.code == .misconfigured && error?.message.contains("3D000") == true, "\(String(describing: error))")
            }
        }

        /// A role that may only read (a hot standby's shape) opens with `readOnly`, without
        /// migrating, and serves reads; every write, and a renewal's lock, is refused as
        /// `.readOnly` without reaching the server. A schema never migrated is misconfigured.
        @Test func aReadOnlyRoleOpensReadOnlyAndServesReads() async throws {
            try await PostgresTestCluster.withCluster { cluster in
                try await cluster.createRole("reader")
                let unmigrated = await Self.storeError { _ = try await PostgresCredentialStore.open(configuration: Self.configuration(cluster, user: "reader"), options: .init(changeFeed: nil, readOnly: true)) }
                #expect(unmigrated?.code == .misconfigured, "\(String(describing: unmigrated))")

                let owner = try await PostgresCredentialStore.open(configuration: Self.configuration(cluster))
                try await owner.put(Self.record, for: Self.key)
                try await cluster.grantReadOnly(to: "reader")
                let reader = try await PostgresCredentialStore.open(configuration: Self.configuration(cluster, user: "reader"), options: .init(readOnly: true))
                #expect(try await reader.get(Self.key) == Self.record)
                #expect(try await reader.accounts(in: "n") == ["alice"])
                #expect(try await reader.items(of: Self.key.accountKey) == ["credential"])
                let changed = Envelope(kind: "bearer", payload: Data("other".utf8), updatedAt: Date(timeIntervalSince1970: 1_700_000_001))
                #expect(await Self.storeError { try await reader.put(changed, for: Self.key) }?.code == .readOnly)
                #expect(await Self.storeError { try await reader.delete(Self.key) }?.code == .readOnly)
                #expect(await Self.storeError { try await reader.deleteAccount(Self.key.accountKey) }?.code == .readOnly)
                #expect(await Self.storeError { try await reader.deleteAll() }?.code == .readOnly)
                #expect(await Self.storeError { _ = try await reader.replace(Self.key, ifCurrent: Self.record, with: changed) }?.code == .readOnly)
                let ran = ManagedFlag()
                #expect(await Self.storeError { try await reader.withRefreshLock(for: Self.key.accountKey) { ran.set() } }?.code == .readOnly)
                #expect(!ran.value, "a renewal ran on a store that cannot keep its result")
                // Changes made by a writer reach the read-only store's change feed.
                #expect(await eventually { reader.isChangeFeedConnected })
                try await owner.put(changed, for: Self.key)
                #expect(await eventually { (try? await reader.get(Self.key)) == changed })
                #expect(try await owner.get(Self.key) == changed)
                await reader.close()
                await owner.close()
            }
        }

        /// The server switched to read-only under a running store (a failover to a standby): the
        /// store keeps serving reads, a write is `.readOnly` (25006), never `.unavailable` for ever,
        /// and writes pass again once the server takes them; nothing stored is lost.
        @Test func aServerSwitchedToReadOnlyRefusesWritesAsReadOnly() async throws {
            try await PostgresTestCluster.withCluster { cluster in
                let store = try await PostgresCredentialStore.open(configuration: Self.configuration(cluster), options: .init(operationTimeout: .seconds(3), changeFeed: nil))
                try await store.put(Self.record, for: Self.key)
                try await cluster.setReadOnly(true)
                let changed = Envelope(kind: "bearer", payload: Data("other".utf8), updatedAt: Date(timeIntervalSince1970: 1_700_000_001))
                // The first call may meet a terminated connection (unavailable); then read-only.
                var codes: [CredentialStoreError.Code] = []
                for _ in 0..<20 {
                    let code = await Self.storeError { try await store.put(changed, for: Self.key) }?.code
                    guard let code else { Issue.record("a write passed on a read-only server"); break }
                    codes.append(code)
                    if code == .readOnly { break }
                    try await Task.sleep(for: .milliseconds(100))
                }
                #expect(codes.last == .readOnly, "\(codes)")
                #expect(codes.allSatisfy { $0 == .readOnly || $0 == .unavailable }, "\(codes)")
                #expect(try await store.get(Self.key) == Self.record)
                // A new store on the standby opens read-only; opening read-write is `.readOnly` too.
                #expect(await Self.storeError { _ = try await PostgresCredentialStore.open(configuration: Self.configuration(cluster), options: .init(changeFeed: nil)) }?.code == .readOnly)
                let standby = try await PostgresCredentialStore.open(configuration: Self.configuration(cluster), options: .init(changeFeed: nil, readOnly: true))
                #expect(try await standby.get(Self.key) == Self.record)
                await standby.close()

                try await cluster.setReadOnly(false)
                #expect(await eventually(within: .seconds(30)) { (try? await store.put(changed, for: Self.key)) != nil })
                #expect(try await store.get(Self.key) == changed)
                await store.close()
            }
        }

        /// A name over the store's limit is refused before any query, with a short message naming
        /// the part and its size, never the name; nothing stored is touched.
        @Test func aMegabyteAccountNameIsInvalidWithAShortMessage() async throws {
            try await PostgresTestCluster.withCluster { cluster in
                let store = try await PostgresCredentialStore.open(configuration: Self.configuration(cluster), options: .init(changeFeed: nil))
                try await store.put(Self.record, for: Self.key)
                let huge = String(repeating: "x", count: 1 << 20)
                let hugeKey = AccountKey(namespace: "n", account: huge).item("credential")
                var errors: [CredentialStoreError?] = []
                errors.append(await Self.storeError { try await store.put(Self.record, for: hugeKey) })
                errors.append(await Self.storeError { _ = try await store.get(hugeKey) })
                errors.append(await Self.storeError { try await store.delete(hugeKey) })
                errors.append(await Self.storeError { try await store.deleteAccount(hugeKey.accountKey) })
                errors.append(await Self.storeError { _ = try await store.replace(hugeKey, ifCurrent: nil, with: Self.record) })
                errors.append(await Self.storeError { _ = try await store.items(of: hugeKey.accountKey) })
                errors.append(await Self.storeError { try await store.withRefreshLock(for: hugeKey.accountKey) {} })
                for error in errors {
                    #expect(error?.code == .invalidArgument, "\(String(describing: error))")
                    let text = "\(String(describing: error))"
                    #expect(text.count < 300, "the error is \(text.count) characters long")
                    #expect(text.contains("account") && text.contains("\(1 << 20)") && text.contains("\(PostgresCredentialStore.maximumNameBytes)"), "\(text.prefix(300))")
                }
                let namespace = await Self.storeError { _ = try await store.accounts(in: huge) }
                #expect(namespace?.code == .invalidArgument && namespace?.message.contains("namespace") == true)
                let item = await Self.storeError { _ = try await store.get(AccountKey(namespace: "n", account: "alice").item(huge)) }
                #expect(item?.code == .invalidArgument && item?.message.contains("item") == true)
                // At the limit, a name is taken.
                let longest = AccountKey(namespace: "n", account: String(repeating: "é", count: PostgresCredentialStore.maximumNameBytes / 2)).item("credential")
                try await store.put(Self.record, for: longest)
                #expect(try await store.get(longest) == Self.record)
                #expect(try await store.get(Self.key) == Self.record)
                await store.close()
            }
        }

        /// The server stopped: a read, a write and opening a store are `.unavailable` within the
        /// operation timeout (and a margin); once it is back, the same store serves again.
        @Test func aStoppedServerIsUnavailable() async throws {
            try await PostgresTestCluster.withCluster { cluster in
                let store = try await PostgresCredentialStore.open(configuration: Self.configuration(cluster), options: .init(operationTimeout: .seconds(2), changeFeed: nil))
                try await store.put(Self.record, for: Self.key)
                try await cluster.pause()
                let clock = ContinuousClock()
                let calls: [(String, @Sendable () async throws -> Void)] = [
                    ("get", { _ = try await store.get(Self.key) }),
                    ("put", { try await store.put(Self.record, for: Self.key) }),
                    ("open", { _ = try await PostgresCredentialStore.open(configuration: Self.configuration(cluster), options: .init(operationTimeout: .seconds(2), changeFeed: nil)) }),
                ]
                for (name, call) in calls {
                    let started = clock.now
                    let error = await Self.storeError(call)
                    let took = clock.now - started
                    #expect(error?.code == .unavailable, "\(name): \(String(describing: error))")
                    // The 2 s operation timeout, not a hang; the margin is for a loaded machine.
                    #expect(took < .seconds(2 + 30), "\(name) took \(took)")
                }
                try await cluster.resume()
                #expect(await eventually(within: .seconds(20)) { (try? await store.get(Self.key)) == Self.record })
                await store.close()
            }
        }

        /// Options no store can take are refused by name before connecting.
        @Test func badOptionsAreRefusedByName() async throws {
            let configuration = PostgresClient.Configuration(host: "127.0.0.1", port: 1, username: "authkit", password: nil, database: nil, tls: .disable)
            for (options, name) in [(PostgresStoreOptions(schema: "Billing"), "schema"), (PostgresStoreOptions(schema: "a\"; DROP TABLE x; --"), "schema"), (PostgresStoreOptions(schema: String(repeating: "a", count: 64)), "schema"), (PostgresStoreOptions(schema: "pg_catalog"), "schema"), (PostgresStoreOptions(poolSize: 1), "poolSize"), (PostgresStoreOptions(operationTimeout: .zero), "operationTimeout")] {
                let error = await Self.storeError { _ = try await PostgresCredentialStore.open(configuration: configuration, options: options) }
                #expect(error?.code == .invalidArgument && error?.message.contains(name) == true, "\(String(describing: error))")
                #expect(error?.message.contains("DROP") != true)
            }
        }
    }
}

/// A flag a `@Sendable` closure sets.
final class ManagedFlag: Sendable {
    private let state = Mutex(false)
    /// Whether it was set.
    var value: Bool { state.withLock { $0 } }
    /// Sets it.
    func set() { state.withLock { $0 = true } }
}
