// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthTesting
import Foundation
import HTTPTypes
import Logging
import Testing

/// What is decided when a vault or a client is made, not looked up on each request: a store's
/// capabilities, and whether the client logs at all.
@Suite struct ConfigurationTimeTests {
    /// A store with none of the optional capabilities: it forwards the records to another.
    struct PlainStore: CredentialStore {
        let inner = InMemoryCredentialStore()
        func get(_ key: CredentialKey) async throws -> Envelope? { try await inner.get(key) }
        func put(_ envelope: Envelope, for key: CredentialKey) async throws { try await inner.put(envelope, for: key) }
        func delete(_ key: CredentialKey) async throws { try await inner.delete(key) }
        func items(of account: AccountKey) async throws -> [String] { try await inner.items(of: account) }
        func accounts(in namespace: String) async throws -> [String] { try await inner.accounts(in: namespace) }
        func namespaces() async throws -> [String] { try await inner.namespaces() }
        func deleteAccount(_ account: AccountKey) async throws { try await inner.deleteAccount(account) }
        func deleteAll() async throws { try await inner.deleteAll() }
    }

    /// The vault knows what its store can do from the moment it is made; a store without a refresh
    /// lock still renews (in process, once per account).
    @Test func aVaultKnowsItsStoresCapabilities() async throws {
        let locking = CredentialVault(store: InMemoryCredentialStore())
        #expect(locking.refreshLocking != nil)
        #expect(locking.changeFeed == nil)
        let plain = CredentialVault(store: PlainStore())
        #expect(plain.refreshLocking == nil)
        #expect(plain.changeFeed == nil)

        let refresher = CountingRefresher(delay: .milliseconds(20))
        let session = AccountSession(account: alice, strategy: BearerStrategy(allowedHosts: apiHosts) { tokens in
            try await refresher.refresh(tokens, expiresIn: 600, now: Date())
        }, vault: plain)
        try await session.signIn(BearerTokenSet(accessToken: "expired", refreshToken: "r1", expiresAt: Date().addingTimeInterval(-1)))
        let credentials = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<20 { group.addTask { try await session.credentialForRequest().accessToken.reveal } }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(Set(credentials) == ["token-1"])
        #expect(refresher.count == 1)
    }

    /// A container whose logger discards everything (the default) builds clients without a
    /// logging step; one with a logger that writes gets one, and its requests are logged.
    @Test func theLoggingStepIsThereOnlyWhenTheLoggerCanLog() async throws {
        let quiet = AuthContainer()
        let quietClient = quiet.makeClient(for: alice, strategy: BearerStrategy(allowedHosts: apiHosts) { $0 })
        #expect(!quietClient.client.middlewares.contains { $0 is LoggingMiddleware })
        #expect(!quiet.makePublicClient().middlewares.contains { $0 is LoggingMiddleware })

        let capture = CapturingLogHandler.Capture()
        let logging = AuthContainer()
        logging.override(LoggerKey.self, with: Logger(label: "test") { _ in CapturingLogHandler(capture: capture, logLevel: .debug) })
        logging.override(TransportKey.self, with: ClosureTransport { _ in AuthResponse(status: .ok) })
        logging.override(CredentialStoreKey.self, with: InMemoryCredentialStore())  // meant: no notice about it
        let client = logging.makeClient(for: alice, strategy: BearerStrategy(allowedHosts: apiHosts) { $0 })
        #expect(client.client.middlewares.contains { $0 is LoggingMiddleware })
        try await client.signIn(BearerTokenSet(accessToken: "t", expiresAt: Date().addingTimeInterval(600)))
        _ = try await client.send(.get, URL(string: "https://api.example.com/v1/items")!)
        #expect(capture.all.map(\.message) == ["request", "response"])
    }
}
