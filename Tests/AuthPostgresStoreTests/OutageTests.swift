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
import Foundation
import PostgresNIO
import AuthTesting
import Testing

extension PostgresSuites {
    /// PostgreSQL stopped for ten seconds under running instances.
    @Suite(.serialized, .timeLimit(.minutes(3)))
    struct OutageTests {
        /// During the outage: requests with a valid credential in memory keep working, what needs the
        /// store fails with a typed unavailable error naming no secret, nobody is signed out. After
        /// it: the same pools and feeds recover by themselves, no record is lost, and a sign-out
        /// propagates again.
        @Test func aTenSecondOutageSignsNobodyOutAndTheFleetRecovers() async throws {
            try await PostgresTestCluster.withCluster { cluster in
                try await AuthTestServer.withRunning { server in
                    try await HTTPClientTransport.withTransport { transport in
                        let account = AccountKey(namespace: "fleet", account: "carol")
                        let a = try await FleetInstance.make(cluster, server: server, transport: transport, account: account, operationTimeout: .seconds(5))
                        let b = try await FleetInstance.make(cluster, server: server, transport: transport, account: account, changeFeed: .init(readThroughInterval: .seconds(1)), operationTimeout: .seconds(5))
                        #expect(await eventually { a.store.isChangeFeedConnected && b.store.isChangeFeedConnected })
                        let tokens = try await FleetInstance.tokens(server, transport: transport, username: "carol")
                        try await a.client.signIn(tokens)
                        #expect(await b.me(server) == "200")
                        let key = account.item(CredentialVault.credentialItem)
                        let stored = try #require(try await b.store.get(key))
                        let events = EventRecorder(b.events)
                        // Another account whose credential is due: its renewal needs the store.
                        let due = b.other(AccountKey(namespace: "fleet", account: "erin"))
                        var expired = try await FleetInstance.tokens(server, transport: transport, username: "erin")
                        expired.expiresAt = Date().addingTimeInterval(-1)
                        try await due.client.signIn(expired)

                        try await cluster.pause()
                        let clock = ContinuousClock()
                        let outage = clock.now
                        var statuses: [String: Int] = [:]
                        var storeErrors: [CredentialStoreError] = []
                        var newAccount: [String] = []
                        while clock.now - outage < .seconds(10) {
                            statuses[await b.me(server), default: 0] += 1
                            do {
                                _ = try await b.store.get(key)
                            } catch let error as CredentialStoreError {
                                storeErrors.append(error)
                            }
                            if newAccount.count < 3, clock.now - outage > .seconds(2) {
                                let other = await b.other(AccountKey(namespace: "fleet", account: "new-\(newAccount.count)")).me(server)
                                newAccount.append(other)
                            }
                            try await Task.sleep(for: .milliseconds(100))
                        }
                        // A renewal during the outage gets a typed error within the store's bounds (the
                        // operation timeout for a connection), rather than waiting for the database.
                        let renewalStarted = clock.now
                        let renewal = await due.me(server)
                        let renewalTook = clock.now - renewalStarted
                        try await cluster.resume()
                        #expect(renewal == AuthError.Code.storage.description, "a renewal during the outage: \(renewal)")
                        #expect(renewalTook < .seconds(9), "a renewal during the outage took \(renewalTook)")

                        #expect(statuses.keys.sorted() == ["200"], "requests holding a valid credential failed during the outage: \(statuses)")
                        #expect(!storeErrors.isEmpty && storeErrors.allSatisfy { $0.code == .unavailable })
                        #expect(newAccount.allSatisfy { $0 == AuthError.Code.storage.description }, "\(newAccount)")

                        // Back: the same pools and feeds recover by themselves; nothing was lost.
                        #expect(await eventually(within: .seconds(60)) { a.store.isChangeFeedConnected && b.store.isChangeFeedConnected })
                        #expect(await eventually(within: .seconds(30)) { (try? await b.store.get(key)) == stored })
                        #expect(!events.all.contains(.signedOut(account)))
                        #expect(await b.me(server) == "200")
                        try await a.client.signOut()
                        let (elapsed, last) = await b.timeUntilSignedOut(server)
                        // Within a second on a machine that is not oversubscribed; 3 s leaves a loaded
                        // CI machine its margin (as in `ChangeFeedTests`).
                        #expect(elapsed != nil && elapsed! < .seconds(3), "after the outage the sign-out took \(String(describing: elapsed)) (last: \(last))")
                        await a.store.close()
                        await b.store.close()
                    }
                }
            }
        }
    }
}
