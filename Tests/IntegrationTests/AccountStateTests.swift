// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthObservation
import AuthTestServer
import AuthTesting
import Foundation
import Observation
import Synchronization
import Testing

/// Issue 22: an account's state as an `AsyncSequence`, and as an `@Observable` model.
@Suite struct AccountStateTests {
    static let alice = AccountKey(namespace: "testserver", account: "alice")

    /// Sign-in, renewal, rejection of the refresh token, sign-in again, sign-out: each state in
    /// order, starting with the current one.
    @Test func theStatesOfAnAccountArriveInOrder() async throws {
        try await Harness.run { h in
            let container = h.container()
            try await h.register("alice")
            let client = container.makeClient(for: Self.alice, strategy: h.bearer())
            let seen = Mutex<[AccountState]>([])
            let stream = client.session.states()
            let observer = Task { for await state in stream { seen.withLock { $0.append(state) } } }
            #expect(await until { seen.withLock { $0 } == [.signedOut] })

            let first = try await h.login("alice")
            try await client.signIn(first)
            h.server.clock.advance(by: 301)
            #expect(try await client.send(.get, h.url("me")).status == .ok)
            let renewed = try await client.session.credentialForRequest()

            _ = await h.server.revokeRefreshTokens(username: "alice")
            h.server.clock.advance(by: 301)
            await #expect { try await client.send(.get, h.url("me")) } throws: { ($0 as? AuthError)?.code == .reauthenticationRequired }

            let again = try await h.login("alice")
            try await client.signIn(again)
            try await client.signOut()
            #expect(await until { seen.withLock { $0.last } == .signedOut && seen.withLock { $0.count } > 2 })
            observer.cancel()

            let states = seen.withLock { $0 }
            guard states.count == 8, case .reauthenticationRequired(let reason) = states[5] else {
                Issue.record("unexpected states: \(states)")
                return
            }
            let expected: [AccountState] = [
                .signedOut, .signedIn(expiresAt: first.expiresAt), .renewing, .signedIn(expiresAt: renewed.expiresAt),
                .renewing, .reauthenticationRequired(reason: reason), .signedIn(expiresAt: again.expiresAt), .signedOut,
            ]
            #expect(states == expected)
            #expect(!reason.contains(first.refreshToken?.reveal ?? "-"))
        }
    }

    /// A second observer starts with the current state, not the history.
    @Test func anObserverStartsWithTheCurrentState() async throws {
        try await Harness.run { h in
            let container = h.container()
            try await h.register("alice")
            let client = container.makeClient(for: Self.alice, strategy: h.bearer())
            let tokens = try await h.login("alice")
            try await client.signIn(tokens)
            var late = client.session.states().makeAsyncIterator()
            #expect(await late.next() == .signedIn(expiresAt: tokens.expiresAt))
        }
    }

    /// A store that fails: `storeUnavailable`, and back to the credential's state when it works.
    @Test func aFailingStoreIsAStateOfItsOwn() async throws {
        let store = FaultyStore()
        let container = AuthContainer()
        container.override(CredentialStoreKey.self, with: store)
        let client = container.makeClient(for: Self.alice, strategy: BearerStrategy(allowedHosts: AllowedHosts(origin: URL(string: "https://api.example.com")!), refresher: ClosureTokenRefresher { $0 }))
        store.failing.withLock { $0 = true }
        var states = client.session.states().makeAsyncIterator()
        let first = await states.next()
        guard case .storeUnavailable(let reason) = first else {
            Issue.record("expected storeUnavailable, got \(String(describing: first))")
            return
        }
        #expect(reason.contains("disk on fire"))
        store.failing.withLock { $0 = false }
        let tokens = BearerTokenSet(accessToken: "a", refreshToken: "r", expiresAt: Date().addingTimeInterval(3_600))
        try await client.signIn(tokens)
        #expect(await states.next() == .signedIn(expiresAt: tokens.expiresAt))
    }

    /// The `@Observable` model follows the same states on the main actor, and observation
    /// reports the change.
    @Test func theObservableModelFollowsTheAccount() async throws {
        try await Harness.run { h in
            let container = h.container()
            try await h.register("alice")
            let client = container.makeClient(for: Self.alice, strategy: h.bearer())
            let model = await AccountStateModel(session: client.session)
            #expect(await untilOnMain { model.state == .signedOut })
            let tokens = try await h.login("alice")
            try await client.signIn(tokens)
            #expect(await untilOnMain { model.state == .signedIn(expiresAt: tokens.expiresAt) })
            let changed = Mutex(false)
            await MainActor.run {
                withObservationTracking { _ = model.state } onChange: { changed.withLock { $0 = true } }
            }
            try await client.signOut()
            #expect(await untilOnMain { model.state == .signedOut })
            #expect(changed.withLock { $0 })
        }
    }

    /// Whether `condition` holds within 30 s (polled every 10 ms; at once when it does).
    private func until(_ condition: () -> Bool) async -> Bool {
        for _ in 0..<3_000 {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }

    /// ``until(_:)`` on the main actor.
    private func untilOnMain(_ condition: @MainActor () -> Bool) async -> Bool {
        for _ in 0..<3_000 {
            if await MainActor.run(body: condition) { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return await MainActor.run(body: condition)
    }
}

/// An in-memory store that can be made to fail with `.unavailable`.
final class FaultyStore: CredentialStore {
    let failing = Mutex(false)
    private let inner = InMemoryCredentialStore()

    private func check() throws {
        if failing.withLock({ $0 }) { throw CredentialStoreError.unavailable("disk on fire") }
    }
    func get(_ key: CredentialKey) async throws -> Envelope? { try check(); return try await inner.get(key) }
    func put(_ envelope: Envelope, for key: CredentialKey) async throws { try check(); try await inner.put(envelope, for: key) }
    func delete(_ key: CredentialKey) async throws { try check(); try await inner.delete(key) }
    func items(of account: AccountKey) async throws -> [String] { try check(); return try await inner.items(of: account) }
    func accounts(in namespace: String) async throws -> [String] { try check(); return try await inner.accounts(in: namespace) }
    func namespaces() async throws -> [String] { try check(); return try await inner.namespaces() }
    func deleteAccount(_ account: AccountKey) async throws { try check(); try await inner.deleteAccount(account) }
    func deleteAll() async throws { try check(); try await inner.deleteAll() }
}
