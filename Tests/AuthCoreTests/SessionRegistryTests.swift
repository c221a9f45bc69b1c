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

@Suite struct SessionRegistryTests {
    @Test func thousandConcurrentRequestsWithExpiredTokenRenewOnce() async throws {
        let clock = ManualClock()
        let api = FakeAPI()
        api.accept("token-1")
        let refresher = CountingRefresher(delay: .milliseconds(20))
        let session = makeSession(clock: clock) { try await refresher.refresh($0, expiresIn: 3600, now: clock.now()) }
        try await session.signIn(BearerTokenSet(accessToken: "token-0", refreshToken: "refresh-0", expiresAt: clock.now().addingTimeInterval(-1)))
        let pipeline = client(session, transport: api.transport)

        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<1000 { group.addTask { try await pipeline.send(.get, apiURL).status.code } }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(refresher.count == 1)
        #expect(statuses.count == 1000)
        #expect(statuses.allSatisfy { $0 == 200 })
        #expect(api.tokensSeen.allSatisfy { $0 == "Bearer token-1" })
    }

    @Test func rejectedOlderCredentialIsRetriedWithCurrentWithoutRenewal() async throws {
        let clock = ManualClock()
        let api = FakeAPI()
        api.accept("old")
        let refresher = CountingRefresher()
        let session = makeSession(clock: clock) { try await refresher.refresh($0, expiresIn: 3600, now: clock.now()) }
        try await session.signIn(BearerTokenSet(accessToken: "old", refreshToken: "r-old", expiresAt: clock.now().addingTimeInterval(3600)))
        let gate = Mutex(false)
        // The transport switches the session to a new credential while the request is in
        // flight, as another request's sign-in or renewal would, then rejects the old token.
        let transport = ClosureTransport { request in
            let first = gate.withLock { done in defer { done = true }; return !done }
            if first {
                try await session.signIn(BearerTokenSet(accessToken: "new", refreshToken: "r-new", expiresAt: clock.now().addingTimeInterval(3600)))
                api.accept("new")
            }
            return try await api.transport.send(request)
        }
        let response = try await client(session, transport: transport).send(.get, apiURL)
        #expect(response.status == .ok)
        #expect(refresher.count == 0)
        #expect(api.tokensSeen == ["Bearer old", "Bearer new"])
    }

    @Test func invalidGrantFailsEveryWaiterAndLaterRequestsFast() async throws {
        let clock = ManualClock()
        let events = AuthEvents()
        let recorder = EventRecorder(events)
        let store = InMemoryCredentialStore()
        let calls = Atomic<Int>(0)
        let session = makeSession(store: store, clock: clock, events: events) { _ in
            calls.add(1, ordering: .relaxed)
            try await Task.sleep(for: .milliseconds(20))
            throw AuthError.reauthenticationRequired(nil, reason: "invalid_grant")
        }
        try await session.signIn(BearerTokenSet(accessToken: "expired", refreshToken: "dead", expiresAt: clock.now().addingTimeInterval(-10)))
        let api = FakeAPI()
        let pipeline = client(session, transport: api.transport)

        let codes = await withTaskGroup(of: AuthError.Code?.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    do { _ = try await pipeline.send(.get, apiURL); return nil } catch let error as AuthError { return error.code } catch { return nil }
                }
            }
            return await group.reduce(into: [AuthError.Code?]()) { $0.append($1) }
        }
        #expect(codes.count == 50)
        #expect(codes.allSatisfy { $0 == .reauthenticationRequired })
        #expect(calls.load(ordering: .relaxed) == 1)
        // Later requests fail fast: no new refresher call, nothing sent.
        await #expect(throws: AuthError.self) { try await pipeline.send(.get, apiURL) }
        #expect(calls.load(ordering: .relaxed) == 1)
        #expect(api.requests == 0)
        let seen = await recorder.waitFor { $0.contains(.reauthenticationRequired(alice, reason: "re-authentication required: invalid_grant")) }
        #expect(seen.contains { if case .reauthenticationRequired(alice, _) = $0 { true } else { false } })
        // The refused credential stays stored (only a sign-out deletes a record); the refusal is
        // marked in the renewal lease, so another process fails at once instead of presenting it.
        #expect(try await CredentialVault(store: store).load(BearerTokenSet.self, for: alice)?.refreshToken?.reveal == "dead")
        let other = makeSession(store: store, clock: clock) { _ in
            calls.add(1, ordering: .relaxed)
            return BearerTokenSet(accessToken: "never", expiresAt: nil)
        }
        await #expect { try await other.credentialForRequest() } throws: { ($0 as? AuthError)?.code == .reauthenticationRequired }
        #expect(calls.load(ordering: .relaxed) == 1)
        // A new sign-in clears the failure.
        api.accept("fresh")
        try await session.signIn(BearerTokenSet(accessToken: "fresh", refreshToken: "r", expiresAt: clock.now().addingTimeInterval(3600)))
        #expect(try await pipeline.send(.get, apiURL).status == .ok)
    }

    @Test func storedCredentialRotatedElsewhereIsAdoptedNotWiped() async throws {
        let clock = ManualClock()
        let store = InMemoryCredentialStore()
        let vault = CredentialVault(store: store, clock: clock)
        let rotated = BearerTokenSet(accessToken: "rotated-by-other-process", refreshToken: "r2", expiresAt: clock.now().addingTimeInterval(3600))
        let session = makeSession(store: store, clock: clock) { rejected in
            // While the server rejects r1, another process has already stored its rotation.
            #expect(rejected.refreshToken?.reveal == "r1")
            try await vault.save(rotated, for: alice)
            throw AuthError.reauthenticationRequired(nil, reason: "invalid_grant")
        }
        try await session.signIn(BearerTokenSet(accessToken: "a1", refreshToken: "r1", expiresAt: clock.now().addingTimeInterval(-1)))
        let api = FakeAPI()
        api.accept("rotated-by-other-process")
        let response = try await client(session, transport: api.transport).send(.get, apiURL)
        #expect(response.status == .ok)
        #expect(try await vault.load(BearerTokenSet.self, for: alice) == rotated)
    }

    @Test func serverThatAlwaysRejectsEndsInExcessiveRenewal() async throws {
        let clock = ManualClock()
        let refresher = CountingRefresher()
        let session = makeSession(clock: clock, policy: RenewalPolicy(maxRenewals: 5, window: .seconds(30))) {
            try await refresher.refresh($0, expiresIn: 3600, now: clock.now())
        }
        try await session.signIn(BearerTokenSet(accessToken: "t", refreshToken: "r", expiresAt: clock.now().addingTimeInterval(3600)))
        let always401 = ClosureTransport { _ in AuthResponse(status: .unauthorized) }
        let pipeline = client(session, transport: always401)
        // Each request renews once, is refused again and fails with `rejectedAfterRenewal`
        // (issue 17: no response that invites another renewal); the budget ends the series.
        var codes: [AuthError.Code] = []
        for _ in 0..<20 {
            do { _ = try await pipeline.send(.get, apiURL) } catch let error as AuthError {
                codes.append(error.code)
                if error.code == .excessiveRenewal { break }
            }
        }
        #expect(refresher.count == 5)
        #expect(codes == Array(repeating: .rejectedAfterRenewal, count: 5) + [.excessiveRenewal])
        // After the window the budget is back.
        clock.advance(by: 31)
        await #expect(throws: AuthError.self) { try await pipeline.send(.get, apiURL) }
        #expect(refresher.count == 6)
    }

    @Test func unauthorizedForAnotherSchemeDoesNotRenew() async throws {
        let clock = ManualClock()
        let refresher = CountingRefresher()
        let session = makeSession(clock: clock) { try await refresher.refresh($0, expiresIn: 3600, now: clock.now()) }
        try await session.signIn(BearerTokenSet(accessToken: "t", refreshToken: "r", expiresAt: clock.now().addingTimeInterval(3600)))
        let signatureRejected = ClosureTransport { _ in AuthResponse(status: .unauthorized, headerFields: [.wwwAuthenticate: #"Signature realm="api""#]) }
        #expect(try await client(session, transport: signatureRejected).send(.get, apiURL).status == .unauthorized)
        #expect(refresher.count == 0)
        let bearerRejected = ClosureTransport { _ in AuthResponse(status: .unauthorized, headerFields: [.wwwAuthenticate: #"Bearer realm="api", error="invalid_token""#]) }
        await #expect(throws: AuthError.self) { try await client(session, transport: bearerRejected).send(.get, apiURL) }
        #expect(refresher.count == 1)
    }

    @Test func renewedCredentialIsPersistedBeforeTheRetriedRequest() async throws {
        let clock = ManualClock()
        let store = InMemoryCredentialStore()
        let vault = CredentialVault(store: store, clock: clock)
        let refresher = CountingRefresher()
        let session = makeSession(store: store, clock: clock) { try await refresher.refresh($0, expiresIn: 3600, now: clock.now()) }
        try await session.signIn(BearerTokenSet(accessToken: "token-0", refreshToken: "refresh-0", expiresAt: clock.now().addingTimeInterval(3600)))
        let storedAtRetry = Mutex<String?>(nil)
        let transport = ClosureTransport { request in
            let auth = request.head.headerFields[.authorization]
            guard auth == "Bearer token-1" else { return AuthResponse(status: .unauthorized) }
            let stored = try await vault.load(BearerTokenSet.self, for: alice)
            storedAtRetry.withLock { $0 = stored?.accessToken.reveal }
            return AuthResponse(status: .ok)
        }
        #expect(try await client(session, transport: transport).send(.get, apiURL).status == .ok)
        #expect(storedAtRetry.withLock { $0 } == "token-1")
    }

    @Test func persistFailureIsReportedAndTheRenewedCredentialStillUsed() async throws {
        let clock = ManualClock()
        let events = AuthEvents()
        let recorder = EventRecorder(events)
        let store = FaultyStore()
        let refresher = CountingRefresher()
        // The store stops taking writes once the token endpoint has answered (mid-renewal).
        let session = makeSession(store: store, clock: clock, events: events) {
            let renewed = try await refresher.refresh($0, expiresIn: 3600, now: clock.now())
            store.failWrites.withLock { $0 = true }
            return renewed
        }
        try await session.signIn(BearerTokenSet(accessToken: "token-0", refreshToken: "refresh-0", expiresAt: clock.now().addingTimeInterval(-5)))
        let api = FakeAPI()
        api.accept("token-1")
        #expect(try await client(session, transport: api.transport).send(.get, apiURL).status == .ok)
        let seen = await recorder.waitFor { $0.contains { if case .persistFailed = $0 { true } else { false } } }
        #expect(seen.contains { if case .persistFailed(alice, _) = $0 { true } else { false } })
        store.failWrites.withLock { $0 = false }
    }

    @Test func proactiveRenewalInsideLeewayAndSkewMovesIt() async throws {
        let clock = ManualClock()
        let refresher = CountingRefresher()
        let session = makeSession(clock: clock, policy: RenewalPolicy(leeway: .seconds(30))) {
            try await refresher.refresh($0, expiresIn: 3600, now: clock.now())
        }
        try await session.signIn(BearerTokenSet(accessToken: "token-0", refreshToken: "refresh-0", expiresAt: clock.now().addingTimeInterval(120)))
        // 120 s left: outside the leeway, no renewal.
        _ = try await session.credentialForRequest()
        #expect(refresher.count == 0)
        // A server whose Date header is 100 s ahead: 20 s left by its clock, inside the leeway.
        let ahead = HTTPDate.format(clock.now().addingTimeInterval(100))
        let transport = ClosureTransport { _ in AuthResponse(status: .ok, headerFields: [.date: ahead]) }
        _ = try await client(session, transport: transport).send(.get, apiURL)
        #expect(session.clockSkew > 98)
        #expect(refresher.count == 0)
        let renewed = try await session.credentialForRequest()
        #expect(refresher.count == 1)
        #expect(renewed.accessToken.reveal == "token-1")
        // Without skew, 100 s later the renewed token (3600 s) is still far from expiry.
        _ = try await session.credentialForRequest()
        #expect(refresher.count == 1)
    }

    @Test func proactiveRenewalWhenLocalClockEntersLeeway() async throws {
        let clock = ManualClock()
        let refresher = CountingRefresher()
        let session = makeSession(clock: clock) { try await refresher.refresh($0, expiresIn: 3600, now: clock.now()) }
        try await session.signIn(BearerTokenSet(accessToken: "token-0", refreshToken: "refresh-0", expiresAt: clock.now().addingTimeInterval(600)))
        clock.advance(by: 569)
        _ = try await session.credentialForRequest()
        #expect(refresher.count == 0)
        clock.advance(by: 2)  // 29 s left, inside the 30 s leeway
        _ = try await session.credentialForRequest()
        #expect(refresher.count == 1)
    }

    @Test func notSignedInIsATypedErrorEveryTime() async throws {
        let session = makeSession { $0 }
        for _ in 0..<10 {
            await #expect { try await session.credentialForRequest() } throws: { ($0 as? AuthError)?.code == .notSignedIn }
        }
    }

    @Test func unavailableStoreIsNotSignedOut() async throws {
        let events = AuthEvents()
        let recorder = EventRecorder(events)
        let store = FaultyStore()
        store.fault.withLock { $0 = CredentialStoreError.unavailable("database is locked") }
        let session = makeSession(store: store, events: events) { $0 }
        await #expect { try await session.credentialForRequest() } throws: { ($0 as? AuthError)?.code == .storage }
        let seen = await recorder.waitFor { !$0.isEmpty }
        #expect(seen.contains { if case .storeUnavailable = $0 { true } else { false } })
        #expect(!seen.contains { if case .signedOut = $0 { true } else { false } })
    }
}
