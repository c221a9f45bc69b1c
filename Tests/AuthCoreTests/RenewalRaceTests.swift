// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthOAuth2
import AuthTesting
import Foundation
import HTTPTypes
import Synchronization
import Testing

/// Issue 18: state that a sign-in, a sign-out or another process changes underneath a renewal.
/// Pure session logic over an in-memory store and a scripted transport; the same cases run over
/// real HTTP and real stores in `IntegrationTests/RenewalFencingTests`.
@Suite struct RenewalRaceTests {
    /// A refresher that waits until the test lets it go, so a test can act while it is in flight.
    final class GatedRefresher: Sendable {
        let started = AsyncGate()
        let release = AsyncGate()
        let calls = Atomic<Int>(0)
        func refresh(_ tokens: BearerTokenSet, now: Date) async throws -> BearerTokenSet {
            let n = calls.add(1, ordering: .relaxed).newValue
            started.open()
            await release.wait()
            return BearerTokenSet(accessToken: "renewed-\(n)", refreshToken: "refresh-renewed-\(n)", expiresAt: now.addingTimeInterval(3600))
        }
    }

    @Test func signOutDuringARenewalIsNotUndone() async throws {
        let clock = ManualClock()
        let store = InMemoryCredentialStore()
        let refresher = GatedRefresher()
        let session = makeSession(store: store, clock: clock) { try await refresher.refresh($0, now: clock.now()) }
        try await session.signIn(BearerTokenSet(accessToken: "old", refreshToken: "r-old", expiresAt: clock.now().addingTimeInterval(-1)))
        let request = Task { try await session.credentialForRequest() }
        await refresher.started.wait()
        try await session.signOut()
        refresher.release.open()
        await #expect { try await request.value } throws: { ($0 as? AuthError)?.code == .notSignedIn }
        #expect(try await store.get(alice.item(CredentialVault.credentialItem)) == nil)
        await #expect { try await session.credentialForRequest() } throws: { ($0 as? AuthError)?.code == .notSignedIn }
    }

    @Test func signInDuringARenewalWinsOverTheRenewedCredential() async throws {
        let clock = ManualClock()
        let store = InMemoryCredentialStore()
        let vault = CredentialVault(store: store, clock: clock)
        let refresher = GatedRefresher()
        let session = makeSession(store: store, clock: clock) { try await refresher.refresh($0, now: clock.now()) }
        try await session.signIn(BearerTokenSet(accessToken: "old", refreshToken: "r-old", expiresAt: clock.now().addingTimeInterval(-1)))
        let request = Task { try await session.credentialForRequest() }
        await refresher.started.wait()
        let fresh = BearerTokenSet(accessToken: "signed-in", refreshToken: "r-new", expiresAt: clock.now().addingTimeInterval(3600))
        try await session.signIn(fresh)
        refresher.release.open()
        #expect(try await request.value == fresh)
        #expect(try await vault.load(BearerTokenSet.self, for: alice) == fresh)
        #expect(try await session.credentialForRequest() == fresh)
    }

    @Test func signOutInAnotherProcessDuringARenewalIsNotUndone() async throws {
        // Two sessions on one store stand for two processes: only the store connects them.
        let clock = ManualClock()
        let store = InMemoryCredentialStore()
        let refresher = GatedRefresher()
        let daemon = makeSession(store: store, clock: clock) { try await refresher.refresh($0, now: clock.now()) }
        let cli = makeSession(store: store, clock: clock) { $0 }
        try await daemon.signIn(BearerTokenSet(accessToken: "old", refreshToken: "r-old", expiresAt: clock.now().addingTimeInterval(-1)))
        let request = Task { try await daemon.credentialForRequest() }
        await refresher.started.wait()
        try await cli.signOut()
        refresher.release.open()
        await #expect { try await request.value } throws: { ($0 as? AuthError)?.code == .notSignedIn }
        #expect(try await store.get(alice.item(CredentialVault.credentialItem)) == nil)
    }

    @Test func aFreshShortLivedTokenIsNeverDueAndSteadyRenewalNeverExhaustsTheBudget() async throws {
        let clock = ManualClock()
        let refresher = CountingRefresher()
        let session = makeSession(clock: clock) { try await refresher.refresh($0, expiresIn: 2, now: clock.now()) }
        try await session.signIn(BearerTokenSet(accessToken: "token-0", refreshToken: "refresh-0", expiresAt: clock.now().addingTimeInterval(2)))
        // Just issued: not due, whatever the 30 s default leeway says.
        _ = try await session.credentialForRequest()
        #expect(refresher.count == 0)
        // 60 s of steady requests every 100 ms: renewed at three quarters of each 2 s lifetime.
        for _ in 0..<600 {
            clock.advance(by: 0.1)
            _ = try await session.credentialForRequest()
        }
        #expect(refresher.count >= 30 && refresher.count <= 40, "renewals: \(refresher.count)")
    }

    @Test func adoptingWhatAnotherProcessRenewedDoesNotConsumeTheBudget() async throws {
        let clock = ManualClock()
        let store = InMemoryCredentialStore()
        let refresher = CountingRefresher()
        let policy = RenewalPolicy(maxRenewals: 2, window: .seconds(60))
        let first = makeSession(store: store, clock: clock, policy: policy) { try await refresher.refresh($0, expiresIn: 4, now: clock.now()) }
        let second = makeSession(store: store, clock: clock, policy: policy) { try await refresher.refresh($0, expiresIn: 4, now: clock.now()) }
        try await first.signIn(BearerTokenSet(accessToken: "token-0", refreshToken: "refresh-0", expiresAt: clock.now().addingTimeInterval(4)))
        _ = try await second.credentialForRequest()
        for round in 1...10 {
            clock.advance(by: 3.5)
            let renewed = try await first.credentialForRequest()
            #expect(renewed.accessToken.reveal == "token-\(round)")
            // The second process finds its copy due and adopts the stored renewal.
            #expect(try await second.credentialForRequest() == renewed)
        }
        #expect(refresher.count == 10)
    }

    @Test func aFailureGivesWayToACredentialSignedInElsewhereWithBoundedStoreReads() async throws {
        let clock = ManualClock()
        let store = FaultyStore()
        let daemon = makeSession(store: store, clock: clock) { _ in throw AuthError.reauthenticationRequired(nil, reason: "invalid_grant") }
        let cli = makeSession(store: store, clock: clock) { $0 }
        try await daemon.signIn(BearerTokenSet(accessToken: "dead", refreshToken: "r-dead", expiresAt: clock.now().addingTimeInterval(-1)))
        await #expect { try await daemon.credentialForRequest() } throws: { ($0 as? AuthError)?.code == .reauthenticationRequired }
        let fresh = BearerTokenSet(accessToken: "signed-in-by-cli", refreshToken: "r-cli", expiresAt: clock.now().addingTimeInterval(3600))
        try await cli.signIn(fresh)
        // A storm inside the recheck interval fails fast without reading the store.
        let readsBefore = store.gets
        for _ in 0..<1000 {
            await #expect { try await daemon.credentialForRequest() } throws: { ($0 as? AuthError)?.code == .reauthenticationRequired }
        }
        #expect(store.gets == readsBefore)
        clock.advance(by: 1)
        let codes = try await withThrowingTaskGroup(of: BearerTokenSet.self) { group in
            for _ in 0..<100 { group.addTask { try await daemon.credentialForRequest() } }
            return try await group.reduce(into: [BearerTokenSet]()) { $0.append($1) }
        }
        #expect(codes.allSatisfy { $0 == fresh })
        #expect(store.gets <= readsBefore + 1)
    }

    @Test func aRefresherThatRunsItsGrantAgainNeedsNoRefreshToken() async throws {
        let clock = ManualClock()
        let grants = Atomic<Int>(0)
        // Client credentials style: no refresh token; renewing asks for a new token.
        let session = makeSession(clock: clock) { tokens in
            #expect(tokens.refreshToken == nil)
            let n = grants.add(1, ordering: .relaxed).newValue
            return BearerTokenSet(accessToken: "service-\(n)", expiresAt: clock.now().addingTimeInterval(3600))
        }
        try await session.signIn(BearerTokenSet(accessToken: "service-0", expiresAt: clock.now().addingTimeInterval(-1)))
        #expect(try await session.credentialForRequest().accessToken.reveal == "service-1")
        #expect(grants.load(ordering: .relaxed) == 1)
    }

    @Test func aMisconfiguredClientFailsAtOnceAndThenFast() async throws {
        let clock = ManualClock()
        let calls = Atomic<Int>(0)
        let endpoint = ClosureTransport { _ in
            calls.add(1, ordering: .relaxed)
            return AuthResponse(status: .unauthorized, body: Data(#"{"error":"invalid_client"}"#.utf8))
        }
        let refresher = OAuth2RefreshTokenRefresher(tokenEndpoint: URL(string: "https://id.example.com/token")!, clientID: "wrong", transport: endpoint, clock: clock)
        let session = AccountSession(account: alice, strategy: BearerStrategy(allowedHosts: apiHosts, refresher: refresher),
                                     vault: CredentialVault(store: InMemoryCredentialStore(), clock: clock), clock: clock)
        try await session.signIn(BearerTokenSet(accessToken: "a", refreshToken: "r", expiresAt: clock.now().addingTimeInterval(-1)))
        for _ in 0..<20 {
            await #expect { try await session.credentialForRequest() } throws: { ($0 as? AuthError)?.code == .misconfigured }
        }
        #expect(calls.load(ordering: .relaxed) == 1)
    }
}

/// A one-shot signal that any number of tasks can wait for.
final class AsyncGate: Sendable {
    private let state = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))
    func open() {
        let waiters = state.withLock { state in
            defer { state = (true, []) }
            return state.open ? [] : state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
    func wait() async {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state in
                if state.open { return true }
                state.waiters.append(continuation)
                return false
            }
            if ready { continuation.resume() }
        }
    }
}
