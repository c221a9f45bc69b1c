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
import PostgresNIO
import Testing

extension PostgresSuites {
    /// `PostgresStoreOptions.schema`: two deployments share one database, each in its own
    /// PostgreSQL schema, neither seeing the other's records or changes.
    @Suite(.serialized, .timeLimit(.minutes(3)))
    struct SchemaOptionTests {
        /// The first change other than `.unknown` that `changes` yields within `limit`.
        static func firstChange(in changes: AsyncStream<CredentialChange>, within limit: Duration) async -> CredentialChange? {
            await withTaskGroup(of: CredentialChange?.self) { group in
                group.addTask { for await change in changes where change != .unknown { return change }; return nil }
                group.addTask { try? await Task.sleep(for: limit); return nil }
                let first = await group.next() ?? nil
                group.cancelAll()
                return first
            }
        }

        @Test func twoDeploymentsShareADatabaseInTheirOwnSchemas() async throws {
            try await PostgresTestCluster.withCluster { cluster in
                let configuration = TypedErrorTests.configuration(cluster)
                let billing = AuthContainer()
                let billingStore = try await billing.usePostgresStore(configuration, options: .init(poolSize: 4, schema: "billing"))
                let billingOther = try await PostgresCredentialStore.open(configuration: configuration, options: .init(schema: "billing"))
                let shop = try await PostgresCredentialStore.open(configuration: configuration)
                #expect(billingStore.options.schema == "billing" && billingStore.options.poolSize == 4)
                #expect(await eventually { billingStore.isChangeFeedConnected && billingOther.isChangeFeedConnected && shop.isChangeFeedConnected })
                let key = TypedErrorTests.key
                let shopChanges = shop.credentialChanges()
                let billingChanges = billingStore.credentialChanges()

                try await billingOther.put(TypedErrorTests.record, for: key)
                #expect(try await billingStore.get(key) == TypedErrorTests.record)
                #expect(try await shop.get(key) == nil)
                #expect(try await shop.accounts(in: "n") == [])
                // A change in billing's schema reaches billing's feed, not the shop's.
                #expect(await Self.firstChange(in: billingChanges, within: .seconds(30)) == .account(key.accountKey))
                let shopHeard = await Self.firstChange(in: shopChanges, within: .seconds(1))
                #expect(shopHeard == nil, "the shop heard billing's change: \(String(describing: shopHeard))")

                // The tables are where the option says.
                var counts: [String] = []
                for try await (schema, count) in try await shop.client.query("SELECT table_schema::text, count(*)::int FROM information_schema.tables WHERE table_name = 'authkit_credentials' GROUP BY table_schema ORDER BY table_schema").decode((String, Int).self) {
                    counts.append("\(schema):\(count)")
                }
                #expect(counts == ["billing:1", "public:1"])
                try await shop.deleteAll()
                #expect(try await billingStore.get(key) == TypedErrorTests.record)
                for store in [billingStore, billingOther, shop] { await store.close() }
            }
        }
    }
}
