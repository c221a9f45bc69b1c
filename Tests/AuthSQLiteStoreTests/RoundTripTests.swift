// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthSQLiteStore
import Foundation
import Testing

@Suite struct RoundTripTests {
    @Test func threeUsersInThreeNamespacesRoundTripAndSurviveReopening() async throws {
        try await TestSupport.withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("store.sqlite").path
            let namespaces = ["github", "api.example.com", "Zeta"]
            let users = ["alice", "Bob", "carol"]
            var written: [CredentialKey: Envelope] = [:]
            let store = try await SQLiteCredentialStore.open(at: path)
            for (n, namespace) in namespaces.enumerated() {
                for (u, user) in users.enumerated() {
                    let key = CredentialKey(namespace: namespace, account: user, item: "credential")
                    let envelope = Envelope(
                        formatVersion: n + 1, kind: "bearer", payload: Data("\(namespace)|\(user)".utf8),
                        updatedAt: Date(timeIntervalSinceReferenceDate: 123_456.789 + Double(u)),
                        expiresAt: u == 1 ? nil : Date(timeIntervalSinceReferenceDate: 987_654.321_123 * Double(n + 1)))
                    written[key] = envelope
                    try await store.put(envelope, for: key)
                }
            }
            try await expectContents(store, written, namespaces: namespaces, users: users)
            try await store.close()

            let reopened = try await SQLiteCredentialStore.open(at: path)
            try await expectContents(reopened, written, namespaces: namespaces, users: users)
        }
    }

    private func expectContents(_ store: SQLiteCredentialStore, _ written: [CredentialKey: Envelope], namespaces: [String], users: [String]) async throws {
        for (key, envelope) in written {
            #expect(try await store.get(key) == envelope, "record \(key) did not round-trip exactly")
        }
        #expect(try await store.namespaces() == namespaces.sorted())
        for namespace in namespaces {
            #expect(try await store.accounts(in: namespace) == users.sorted())
        }
    }

    @Test func tenThousandAccountsListInSwiftOrderBeforeAndAfterReopening() async throws {
        try await TestSupport.withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("many.sqlite").path
            // Mixed case, digits and punctuation, inserted in a shuffled order.
            let accounts = (0..<10_000).map { index in
                ["user", "User", "u_", "u-", "U.", "a"][index % 6] + String(index * 7919 % 100_003)
            }
            #expect(Set(accounts).count == accounts.count)
            var records: [CredentialKey: Envelope] = [:]
            for account in accounts.shuffled() {
                records[CredentialKey(namespace: "bulk", account: account, item: "credential")] = TestSupport.envelope(account)
            }
            records[CredentialKey(namespace: "other", account: "solo", item: "credential")] = TestSupport.envelope("solo")

            let store = try await SQLiteCredentialStore.open(at: path)
            try await store.putMany(records)
            #expect(try await store.accounts(in: "bulk") == accounts.sorted())
            #expect(try await store.namespaces() == ["bulk", "other"])
            try await store.deleteAccount(AccountKey(namespace: "bulk", account: accounts[42]))
            try await store.close()

            let reopened = try await SQLiteCredentialStore.open(at: path)
            let expected = accounts.filter { $0 != accounts[42] }.sorted()
            #expect(try await reopened.accounts(in: "bulk") == expected)
            let sample = CredentialKey(namespace: "bulk", account: accounts[4_321], item: "credential")
            #expect(try await reopened.get(sample)?.payload == Data(accounts[4_321].utf8))
        }
    }

    @Test func emptyNamesKindAndPayloadRoundTripAsEmptyNotMissing() async throws {
        try await TestSupport.withTemporaryDirectory { directory in
            let store = try await SQLiteCredentialStore.open(at: directory.appendingPathComponent("empty.sqlite").path)
            let key = CredentialKey(namespace: "", account: "", item: "")
            let envelope = Envelope(formatVersion: 0, kind: "", payload: Data(), updatedAt: Date(timeIntervalSinceReferenceDate: 0))
            try await store.put(envelope, for: key)
            #expect(try await store.get(key) == envelope)
            #expect(try await store.namespaces() == [""])
            #expect(try await store.items(of: key.accountKey) == [""])
        }
    }

    @Test func aClosedStoreRefusesCallsWithATypedError() async throws {
        try await TestSupport.withTemporaryDirectory { directory in
            let store = try await SQLiteCredentialStore.open(at: directory.appendingPathComponent("closed.sqlite").path)
            try await store.close()
            let error = await TestSupport.storeError { _ = try await store.get(CredentialKey(namespace: "n", account: "a", item: "i")) }
            #expect(error?.code == .io)
        }
    }
}
