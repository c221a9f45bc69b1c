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

/// The skew estimate from a response's `Date`: the server's clock read that second at some
/// instant between the request's sending and the response's arrival. A response that came slowly
/// (a stalled machine, a long body) used to make the server's clock look that much behind, so that
/// expired tokens stayed in use: a 2.5-second response, a skew of −2.5 s.
@Suite struct ClockSkewTests {
    /// A session whose clock starts 0.7 s into a second, so that the header's truncation counts.
    static func session() -> (AccountSession<BearerStrategy>, ManualClock) {
        let clock = ManualClock(start: Date(timeIntervalSince1970: 1_767_225_600.7))
        let session = AccountSession(
            account: AccountKey(namespace: "t", account: "a"), strategy: BearerStrategy(allowedHosts: AllowedHosts(["example.com"])) { $0 },
            vault: CredentialVault(store: InMemoryCredentialStore()), policy: RenewalPolicy(), clock: clock)
        return (session, clock)
    }

    /// A server whose clock is `skew` from the local one stamps a response at `sent + after`,
    /// which arrives at `sent + took`; the session's estimate afterwards.
    static func observe(_ session: AccountSession<BearerStrategy>, _ clock: ManualClock, skew: TimeInterval, stampedAfter after: TimeInterval = 0, took: TimeInterval) -> TimeInterval {
        let sent = clock.now()
        let field = HTTPDate.format(sent.addingTimeInterval(after + skew))
        clock.advance(by: took)
        session.observeServerDateField(field, sentAt: sent)
        return session.clockSkew
    }

    static func estimate(skew: TimeInterval, stampedAfter after: TimeInterval = 0, took: TimeInterval) -> TimeInterval {
        let (session, clock) = Self.session()
        return observe(session, clock, skew: skew, stampedAfter: after, took: took)
    }

    @Test(arguments: [0.0, 2.5])
    func aSlowResponseFromAServerInStepIsNoSkew(stampedAfter after: TimeInterval) {
        // Stamped at once and slow to arrive (a long body), or stamped late.
        #expect(Self.estimate(skew: 0, stampedAfter: after, took: 2.5) == 0)
        #expect(Self.estimate(skew: 0, stampedAfter: after, took: 30) == 0)
    }

    /// The latest the server's clock can be: renewals come early by at most the header's second
    /// and the response's time, never late.
    @Test func aServerAheadOrBehindIsTakenAtTheLatestItCanBe() {
        let ahead = Self.estimate(skew: 100, took: 0.2)
        #expect(ahead > 100 && ahead <= 101)
        let behind = Self.estimate(skew: -100, stampedAfter: 3, took: 3)
        #expect(behind > -97 && behind <= -96)
        // A slow response from a server 100 s behind: the skew is still seen.
        let slow = Self.estimate(skew: -100, took: 10)
        #expect(slow > -100 && slow <= -99)
    }

    @Test func aSkewSeenBeforeStaysThroughASlowResponse() {
        let (session, clock) = Self.session()
        #expect(Self.observe(session, clock, skew: 3, took: 0.1) > 3)
        clock.advance(by: 1)
        // This response alone would say nothing (server 3 s ahead, or 2 s behind, or in step).
        let after = Self.observe(session, clock, skew: 3, took: 5)
        #expect(after > 2.5 && after <= 4)
    }

    @Test func lessThanTheThresholdEitherWayIsNoSkew() {
        #expect(Self.estimate(skew: 1.5, took: 0.1) == 0)
        #expect(Self.estimate(skew: -1.5, took: 0.1) == 0)
    }

    /// A request that waited for a renewal is sent when the renewal is done: its sending time,
    /// which bounds the skew, is read then. Read before the wait (a minute here), a server 30 s
    /// behind would look anywhere from 30 s behind to 31 s ahead, and no skew would be taken.
    @Test func aRequestThatWaitedForARenewalCountsFromItsSending() async throws {
        let clock = ManualClock(start: Date(timeIntervalSince1970: 1_767_225_600.7))
        let strategy = BearerStrategy(allowedHosts: AllowedHosts(["example.com"])) { _ in
            clock.advance(by: 60)
            return BearerTokenSet(accessToken: "fresh", expiresAt: clock.now().addingTimeInterval(3_600))
        }
        let session = AccountSession(
            account: AccountKey(namespace: "t", account: "a"), strategy: strategy,
            vault: CredentialVault(store: InMemoryCredentialStore()), policy: RenewalPolicy(), clock: clock)
        try await session.signIn(BearerTokenSet(accessToken: "old", expiresAt: clock.now().addingTimeInterval(-10)))
        // A server 30 s behind, answering at once.
        let transport = ClosureTransport { _ in
            AuthResponse(head: HTTPResponse(status: .ok, headerFields: [.date: HTTPDate.format(clock.now().addingTimeInterval(-30))]))
        }
        let client = AuthClient(transport: transport, middlewares: [AuthenticationMiddleware(session: session)])
        let response = try await client.send(.get, URL(string: "https://example.com/")!)
        #expect(response.status == .ok)
        #expect(session.clockSkew > -30 && session.clockSkew <= -29)
    }
    /// A busy client reads the `Date` of the first response sent in each second of its clock, not
    /// of every response: a server that moves its clock is seen from the next second on.
    @Test func theDateIsReadOncePerSecondOfTheClientsClock() async throws {
        let clock = ManualClock(start: Date(timeIntervalSince1970: 1_767_225_600.2))
        let session = AccountSession(
            account: AccountKey(namespace: "t", account: "a"), strategy: BearerStrategy(allowedHosts: AllowedHosts(["example.com"])) { $0 },
            vault: CredentialVault(store: InMemoryCredentialStore()), policy: RenewalPolicy(), clock: clock)
        try await session.signIn(BearerTokenSet(accessToken: "t", expiresAt: clock.now().addingTimeInterval(3_600)))
        let ahead = Mutex<TimeInterval>(120)
        let transport = ClosureTransport { _ in
            AuthResponse(head: HTTPResponse(status: .ok, headerFields: [.date: HTTPDate.format(clock.now().addingTimeInterval(ahead.withLock { $0 }))]))
        }
        let client = AuthClient(transport: transport, middlewares: [AuthenticationMiddleware(session: session)])
        let url = try #require(URL(string: "https://example.com/"))
        _ = try await client.send(.get, url)
        #expect(session.clockSkew > 119 && session.clockSkew <= 121)
        // The server's clock is put right; the next response, in the same second, is not read.
        ahead.withLock { $0 = 0 }
        clock.advance(by: 0.5)
        _ = try await client.send(.get, url)
        #expect(session.clockSkew > 119 && session.clockSkew <= 121)
        // The first response of the next second is.
        clock.advance(by: 0.5)
        _ = try await client.send(.get, url)
        #expect(session.clockSkew == 0)
    }
}
