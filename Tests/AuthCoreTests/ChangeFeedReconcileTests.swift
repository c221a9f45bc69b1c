// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Foundation
import Synchronization
import Testing

/// A store with a change feed that the test drives: changes are sent by hand, and a hook runs
/// right after a renewal's write (as another machine acting at that moment).
final class ScriptedFeedStore: CredentialStore, CredentialChangeFeed {
    let inner = InMemoryCredentialStore()
    private let subscribers = Mutex<[AsyncStream<CredentialChange>.Continuation]>([])
    let afterReplace = Mutex<(@Sendable () async -> Void)?>(nil)

    func credentialChanges() -> AsyncStream<CredentialChange> {
        let (stream, continuation) = AsyncStream<CredentialChange>.makeStream()
        subscribers.withLock { $0.append(continuation) }
        return stream
    }

    func send(_ change: CredentialChange) {
        for subscriber in subscribers.withLock({ $0 }) { subscriber.yield(change) }
    }

    func get(_ key: CredentialKey) async throws -> Envelope? { try await inner.get(key) }
    func put(_ envelope: Envelope, for key: CredentialKey) async throws { try await inner.put(envelope, for: key) }
    func delete(_ key: CredentialKey) async throws { try await inner.delete(key) }
    func items(of account: AccountKey) async throws -> [String] { try await inner.items(of: account) }
    func accounts(in namespace: String) async throws -> [String] { try await inner.accounts(in: namespace) }
    func namespaces() async throws -> [String] { try await inner.namespaces() }
    func deleteAccount(_ account: AccountKey) async throws { try await inner.deleteAccount(account) }
    func deleteAll() async throws { try await inner.deleteAll() }
    func replace(_ key: CredentialKey, ifCurrent expected: Envelope?, with envelope: Envelope?) async throws -> Bool {
        let replaced = try await inner.replace(key, ifCurrent: expected, with: envelope)
        guard key.item == CredentialVault.credentialItem else { return replaced }  // the renewal lease
        if let hook = afterReplace.withLock({ hook in defer { hook = nil }; return hook }) { await hook() }
        return replaced
    }
}

/// How a session takes the changes its store's feed reports (the pure logic; the PostgreSQL
/// suites prove it against a real feed).
@Suite struct ChangeFeedReconcileTests {
    static let alice = AccountKey(namespace: "n", account: "alice")

    static func session(_ store: ScriptedFeedStore, refresher: some TokenRefresher) -> AccountSession<BearerStrategy> {
        SessionRegistry(vault: CredentialVault(store: store)).session(for: alice, strategy: BearerStrategy(allowedHosts: AllowedHosts(origin: URL(string: "https://api.example.com")!), refresher: refresher))
    }

    /// A sign-out elsewhere whose notification arrives while this process renews (after its
    /// write, before it publishes) is taken once the renewal is over, not lost.
    @Test func aSignOutDuringARenewalIsTakenAfterIt() async throws {
        let store = ScriptedFeedStore()
        let session = Self.session(store, refresher: ClosureTokenRefresher { _ in
            BearerTokenSet(accessToken: "renewed", refreshToken: "r2", expiresAt: Date().addingTimeInterval(3_600))
        })
        try await session.signIn(BearerTokenSet(accessToken: "old", refreshToken: "r1", expiresAt: Date().addingTimeInterval(-1)))
        store.afterReplace.withLock { hook in
            hook = {
                try? await store.inner.deleteAccount(Self.alice)
                store.send(.account(Self.alice))
                try? await Task.sleep(for: .milliseconds(200))  // the session looks while the renewal is in flight
            }
        }
        #expect(try await session.credentialForRequest().accessToken.reveal == "renewed")
        var outcome = ""
        for _ in 0..<200 {
            do {
                outcome = try await session.credentialForRequest().accessToken.reveal
            } catch let error as AuthError {
                outcome = error.code.description
                if error.code == .notSignedIn { break }
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(outcome == AuthError.Code.notSignedIn.description, "the credential signed out elsewhere is still used")
    }

    /// A credential renewed elsewhere is adopted without a renewal here.
    @Test func aCredentialRenewedElsewhereIsAdopted() async throws {
        let store = ScriptedFeedStore()
        let renewals = Atomic<Int>(0)
        let session = Self.session(store, refresher: ClosureTokenRefresher { tokens in
            renewals.add(1, ordering: .relaxed)
            return tokens
        })
        try await session.signIn(BearerTokenSet(accessToken: "first", refreshToken: "r1", expiresAt: Date().addingTimeInterval(3_600)))
        let elsewhere = BearerTokenSet(accessToken: "second", refreshToken: "r2", expiresAt: Date().addingTimeInterval(3_600))
        try await CredentialVault(store: store.inner).save(elsewhere, for: Self.alice)
        store.send(.account(Self.alice))
        var seen = ""
        for _ in 0..<200 where seen != "second" {
            seen = try await session.credentialForRequest().accessToken.reveal
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(seen == "second")
        #expect(renewals.load(ordering: .relaxed) == 0)
    }

    /// A removal elsewhere after this process recorded a failure for good keeps the failure:
    /// requests keep asking for a new sign-in rather than reporting "not signed in".
    @Test func aRecordedFailureSurvivesARemovalElsewhere() async throws {
        let store = ScriptedFeedStore()
        let session = Self.session(store, refresher: ClosureTokenRefresher { _ in
            throw AuthError(code: .reauthenticationRequired, message: "invalid_grant")
        })
        try await session.signIn(BearerTokenSet(accessToken: "old", refreshToken: "r1", expiresAt: Date().addingTimeInterval(-1)))
        await #expect { try await session.credentialForRequest() } throws: { ($0 as? AuthError)?.code == .reauthenticationRequired }
        try await store.inner.deleteAccount(Self.alice)
        store.send(.account(Self.alice))
        store.send(.unknown)
        try await Task.sleep(for: .milliseconds(200))
        await #expect { try await session.credentialForRequest() } throws: { ($0 as? AuthError)?.code == .reauthenticationRequired }
    }
}
