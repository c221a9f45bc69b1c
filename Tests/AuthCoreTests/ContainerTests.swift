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
import Synchronization
import Testing
import Logging

@Suite struct ContainerTests {
    enum CounterKey: AuthContainerKey {
        static let builds = Atomic<Int>(0)
        static func makeDefault(_ container: AuthContainer) -> Int { builds.add(1, ordering: .relaxed).newValue }
    }
    enum GreetingKey: AuthContainerKey {
        static func makeDefault(_ container: AuthContainer) -> String { "hello #\(container[CounterKey.self])" }
    }

    @Test func overriddenTransportIsWhatTheClientUses() async throws {
        let container = AuthContainer()
        let hits = Atomic<Int>(0)
        container.override(TransportKey.self, with: ClosureTransport { request in
            hits.add(1, ordering: .relaxed)
            return AuthResponse(status: .ok, body: Data((request.head.headerFields[.authorization] ?? "").utf8))
        })
        let client = container.makeClient(for: alice, strategy: BearerStrategy(allowedHosts: apiHosts) { $0 })
        try await client.signIn(BearerTokenSet(accessToken: "abc", expiresAt: nil))
        let response = try await client.send(.get, apiURL)
        #expect(hits.load(ordering: .relaxed) == 1)
        #expect(String(decoding: response.body, as: UTF8.self) == "Bearer abc")
    }

    @Test func defaultTransportSaysWhatToRegister() async throws {
        let client = AuthContainer().makePublicClient()
        await #expect { try await client.send(.get, apiURL) } throws: { error in
            (error as? AuthError)?.code == .transport && "\(error)".contains("useHTTPClient")
        }
    }

    @Test func overriddenStoreIsWhereSignInWrites() async throws {
        let container = AuthContainer()
        let store = InMemoryCredentialStore()
        container.override(CredentialStoreKey.self, with: store)
        let client = container.makeClient(for: alice, strategy: BearerStrategy(allowedHosts: apiHosts) { $0 })
        try await client.signIn(BearerTokenSet(accessToken: "abc", expiresAt: nil))
        #expect(try await store.accounts(in: "api") == ["alice"])
    }

    @Test func singletonsAreBuiltOnceUnderConcurrency() async {
        let container = AuthContainer()
        let before = CounterKey.builds.load(ordering: .relaxed)
        let values = await withTaskGroup(of: String.self) { group in
            for _ in 0..<200 { group.addTask { container[GreetingKey.self] } }
            return await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(values.count == 1)
        #expect(CounterKey.builds.load(ordering: .relaxed) == before + 1)
    }

    @Test func factorySeesTheContainer() {
        let container = AuthContainer()
        container.override(CounterKey.self, with: 41)
        container.register(GreetingKey.self) { c in "answer \(c[CounterKey.self] + 1)" }
        #expect(container[GreetingKey.self] == "answer 42")
    }

    @Test func registeredFactoryOfAnOptionalEntryRuns() {
        let container = AuthContainer()
        #expect(container[RequestTimeoutKey.self] == nil)
        let other = AuthContainer()
        other.register(RequestTimeoutKey.self) { _ in .seconds(5) }
        #expect(other[RequestTimeoutKey.self] == .seconds(5))
    }

    @Test func clientsOfOneAccountShareOneSession() {
        let container = AuthContainer()
        let strategy = BearerStrategy(allowedHosts: apiHosts) { $0 }
        let a = container.makeClient(for: alice, strategy: strategy)
        let b = container.makeClient(for: alice, strategy: strategy)
        let c = container.makeClient(for: AccountKey(namespace: "api", account: "bob"), strategy: strategy)
        #expect(a.session === b.session)
        #expect(a.session !== c.session)
    }
}

/// Issue 53: a client made with no store configured silently kept credentials in memory.
@Suite struct DefaultStoreNoticeTests {
    @Test func aClientOnTheDefaultStoreSaysThatNothingIsPersisted() async throws {
        let container = AuthContainer()
        let capture = CapturingLogHandler.Capture()
        container.override(LoggerKey.self, with: Logger(label: "test") { _ in CapturingLogHandler(capture: capture) })
        let recorder = EventRecorder(container[AuthEventsKey.self])
        let alice = AccountKey(namespace: "api", account: "alice")
        _ = container.makeClient(for: alice, strategy: StaticCredentialStrategy<APIKeyHeaderCredential>(allowedHosts: AllowedHosts(["api.example.com"])))
        let events = await recorder.waitFor { $0.contains(.credentialsNotPersisted(alice)) }
        #expect(events.contains(.credentialsNotPersisted(alice)))
        #expect(capture.all.contains { $0.level == .notice && $0.message.contains("in memory only") })
    }

    @Test func aStoreSetByTheUserIsTakenAsMeant() async throws {
        let container = AuthContainer()
        container.override(CredentialStoreKey.self, with: InMemoryCredentialStore())
        let recorder = EventRecorder(container[AuthEventsKey.self])
        let bob = AccountKey(namespace: "api", account: "bob")
        let client = container.makeClient(for: bob, strategy: StaticCredentialStrategy<APIKeyHeaderCredential>(allowedHosts: AllowedHosts(["api.example.com"])))
        try await client.signIn(APIKeyHeaderCredential(headerName: "X-Key", key: "k"))
        let events = await recorder.waitFor { $0.contains(.signedIn(bob)) }
        #expect(!events.contains(.credentialsNotPersisted(bob)))
    }
}
