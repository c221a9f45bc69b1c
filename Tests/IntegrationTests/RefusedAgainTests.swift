// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthHTTPClient
import AuthOAuth2
import AuthTestServer
import Foundation
import Synchronization
import Testing

/// A request refused with one token and then with a newer one renews once more when the server
/// had taken the newer one before: it went stale sooner than the client expected (AuthTestServer
/// rounds a token's issue time down to the second, so a 2-second token may last 1 s). Found by the
/// steady-load test of `RenewalFencingTests`: three requests held up for a second on a loaded CI
/// machine came back refused, were sent again with the token other requests had renewed and used
/// meanwhile, already expired at the server, and failed with `rejectedAfterRenewal`. A token due
/// by the client's own clock when refused (it expired on its way) is renewed once more too. A token the server never answered with and
/// the client holds valid is not renewed again: one renewal per wave of refused requests.
@Suite struct RefusedAgainTests {
    static let alice = AccountKey(namespace: "testserver", account: "alice")

    /// A container whose clients ignore the server's clock (skew below a minute), so that a jump
    /// of the server's clock is, for them, a server that stops taking tokens early; the first
    /// request of its clients is held at `gate`.
    static func container(_ h: Harness, gate: Gate) -> AuthContainer {
        let container = h.container()
        container.override(RenewalPolicyKey.self, with: RenewalPolicy(skewThreshold: .seconds(60)))
        container.addMiddleware(.session) { _ in gate }
        return container
    }

    /// A server whose clock stands still, with 30-second tokens, and the time past their expiry
    /// to set it to: the tokens expire there while the client still expects them to last about
    /// 30 s (its skew threshold is a minute).
    static func frozenServer() -> (AuthTestServer.Configuration, ServerClock, Date) {
        let start = Date()
        let clock = ServerClock.fixed(at: start)
        var configuration = AuthTestServer.Configuration(clock: clock)
        configuration.lifetimes.access = 30
        return (configuration, clock, start.addingTimeInterval(31))
    }

    /// Signs alice in, starts a request that takes the signed-in token and is held at the gate,
    /// and renews the token meanwhile. With `answeredWith`, a second request takes the renewed
    /// token to an endpoint that answers with that status (200: `/me`). Returns the client and the
    /// held request.
    static func heldWhileRenewed(_ h: Harness, gate: Gate, answeredWith status: Int?) async throws -> (AccountClient<BearerStrategy>, Task<AuthResponse, any Error>) {
        let client = Self.container(h, gate: gate).makeClient(for: Self.alice, strategy: h.bearer())
        try await h.register("alice")
        let signedIn = try await h.login("alice")
        try await client.signIn(signedIn)
        h.server.resetCounters()
        let request = Task { try await client.send(.get, h.url("me")) }
        await gate.arrival()
        _ = try await client.session.renew(from: signedIn)
        if let status {
            let path = status == 200 ? "me" : "fault/status/\(status)"
            #expect(try await client.send(.get, h.url(path)).status.code == status)
        }
        return (client, request)
    }

    @Test func aTokenTheServerTookAndThenRefusedIsRenewedOnceMore() async throws {
        let (configuration, clock, jump) = Self.frozenServer()
        try await Harness.run(configuration: configuration) { h in
            let gate = Gate()
            let (_, request) = try await Self.heldWhileRenewed(h, gate: gate, answeredWith: 200)
            clock.set(jump)
            gate.open()
            #expect(try await request.value.status == .ok)
            #expect(h.server.counters.renewals == 2)
            // The renewed token's request; then the held one: refused, refused with the renewed
            // token, answered with a third.
            #expect(h.server.counters.requests(path: "/me") == 4)
        }
    }

    /// The held request after the server's clock jumped past both tokens: refused with the
    /// signed-in token, then held again on its way with the renewed one (which the server had
    /// answered with) while `meanwhile` runs, then let go.
    static func secondTry(_ h: Harness, clock: ServerClock, jump: Date, meanwhile: (AccountClient<BearerStrategy>) async throws -> Void) async throws -> Task<AuthResponse, any Error> {
        // Held: the request's first try, and its second (the gate's third pass).
        let gate = Gate(holding: [1, 3])
        let (client, request) = try await Self.heldWhileRenewed(h, gate: gate, answeredWith: 200)
        clock.set(jump)
        gate.open()
        await gate.arrival()
        try await meanwhile(client)
        gate.open()
        return request
    }

    @Test func aRequestRefusedAgainAfterANewerTokenCameTakesTheNewer() async throws {
        let (configuration, clock, jump) = Self.frozenServer()
        try await Harness.run(configuration: configuration) { h in
            let request = try await Self.secondTry(h, clock: clock, jump: jump) { client in
                // Another request is refused with the renewed token, renews it, and is answered.
                let status = try await client.send(.get, h.url("me")).status
                #expect(status == .ok)
                #expect(h.server.counters.renewals == 2)
            }
            // Refused with the renewed token, which is no longer the newest: it takes the newest.
            #expect(try await request.value.status == .ok)
            #expect(h.server.counters.renewals == 2)
            #expect(h.server.counters.requests(path: "/me") == 6)
        }
    }

    @Test func aRequestRefusedAgainAfterASignOutEndsWithItsRefusal() async throws {
        let (configuration, clock, jump) = Self.frozenServer()
        try await Harness.run(configuration: configuration) { h in
            let request = try await Self.secondTry(h, clock: clock, jump: jump) { try await $0.signOut() }
            // Refused with the renewed token the server had answered with: no further try (no
            // renewal budget taken, no refresh lock) for an account signed out meanwhile.
            await #expect { try await request.value } throws: { ($0 as? AuthError)?.code == .rejectedAfterRenewal }
            #expect(h.server.counters.renewals == 1)
        }
    }

    /// From the moment the held request goes, the server refuses every request. Before, it
    /// answered one with the renewed token (200), refused one in another way (404), or none.
    @Test(arguments: [200, 404, nil])
    func aServerRefusingEverythingEndsTheRequest(afterAnsweringTheRenewedTokenWith status: Int?) async throws {
        try await Harness.run { h in
            let gate = Gate()
            let (_, request) = try await Self.heldWhileRenewed(h, gate: gate, answeredWith: status)
            let took = status == 200
            h.server.faults.inject(.status(401), path: "/me", times: 100)
            gate.open()
            await #expect { try await request.value } throws: { ($0 as? AuthError)?.code == .rejectedAfterRenewal }
            // Never taken: refused with its token and with the renewed one (another request's
            // renewal), no renewal for it. Taken: one renewal more, refused again, no more.
            #expect(h.server.counters.renewals == (took ? 2 : 1))
            #expect(h.server.counters.requests(path: "/me") == (took ? 4 : 2))
        }
    }

    /// The renewed token expires at the server before its answer reaches the client (a machine
    /// that stalls; here a transport that holds the first renewal's answer back longer than the
    /// token lives), so the request is refused with it although the server never answered with
    /// it. The client's own clock says it is due: one renewal more. Found by the steady-load test
    /// of `RenewalFencingTests` on a loaded CI machine, after the fix above.
    @Test func aTokenThatExpiredOnItsWayIsRenewedOnceMore() async throws {
        // Tokens live 10 s, and the first renewal's answer is held back 10.1 s: the second renewed
        // token then has 9–10 s to serve the request (with 2 s, a loaded machine's stall of a
        // second refused it too).
        var configuration = AuthTestServer.Configuration()
        configuration.lifetimes.access = 10
        try await Harness.run(configuration: configuration) { h in
            let heldBack = Atomic(false)
            let slowOnce = ClosureTransport { request in
                let response = try await h.transport.send(request)
                if !heldBack.exchange(true, ordering: .relaxed) { try await Task.sleep(for: .milliseconds(10_100)) }
                return response
            }
            let strategy = BearerStrategy(allowedHosts: h.hosts, refresher: OAuth2RefreshTokenRefresher(tokenEndpoint: h.url("auth/refresh"), clientID: "integration-tests", transport: slowOnce))
            let client = h.container().makeClient(for: Self.alice, strategy: strategy)
            try await h.register("alice")
            // Held valid by the client whatever the machine's pace (the fault refuses it), so
            // that the only renewals are the ones the refusals force.
            var signedIn = try await h.login("alice")
            signedIn.expiresAt = Date().addingTimeInterval(3_600)
            try await client.signIn(signedIn)
            h.server.resetCounters()
            h.server.faults.inject(.status(401), path: "/me", times: 1)
            #expect(try await client.send(.get, h.url("me")).status == .ok)
            // Refused by the fault, refused with the token that expired on its way, answered.
            #expect(h.server.counters.renewals == 2)
            #expect(h.server.counters.requests(path: "/me") == 3)
        }
    }

    @Test func aTokenRefusedRightAfterItsRenewalIsFinal() async throws {
        try await Harness.run { h in
            let client = try await h.signedInClient("alice", container: h.container())
            h.server.resetCounters()
            h.server.faults.inject(.status(401), path: "/me", times: 3)
            await #expect { try await client.send(.get, h.url("me")) } throws: { ($0 as? AuthError)?.code == .rejectedAfterRenewal }
            #expect(h.server.counters.renewals == 1)
            #expect(h.server.counters.requests(path: "/me") == 2)
        }
    }
}

/// Holds the requests that reach it at the given places in their order of arrival (1 is the
/// first), one at a time, each until ``open()``; the others pass at once.
final class Gate: Middleware {
    private let holding: Set<Int>
    private let arrived = AsyncStream<Void>.makeStream()
    private let opened = AsyncStream<Void>.makeStream()
    private let count = Atomic(0)

    init(holding: Set<Int> = [1]) { self.holding = holding }

    /// Returns once a request is held.
    func arrival() async {
        for await _ in arrived.stream { return }
    }

    /// Lets the held request go.
    func open() { opened.continuation.yield() }

    nonisolated(nonsending) func intercept(_ request: AuthRequest, next: Next) async throws -> AuthResponse {
        if holding.contains(count.add(1, ordering: .relaxed).newValue) {
            arrived.continuation.yield()
            for await _ in opened.stream { break }
        }
        return try await next(request)
    }
}
