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
import Testing

/// A response that reaches the client slowly (here a transport that holds it back 2.5 s, as a
/// stalled machine or a long body does) does not make the server's clock look behind: before,
/// the client took a skew of about −2.5 s from it and kept using tokens that long past their
/// expiry. A server that is behind is still seen, at the latest its clock can be. And a token
/// answer held up on the server past a second boundary, stamped `Date: …:11` for a token minted
/// at 10.9 s, does not make the client hold the token a second longer than the server honours it.
@Suite struct SlowResponseSkewTests {
    /// A client of `h` whose requests to `/me` come back 2.5 s after the server answered.
    static func slowClient(_ h: Harness) async throws -> AccountClient<BearerStrategy> {
        let container = h.container()
        container.override(TransportKey.self, with: ClosureTransport { request in
            let response = try await h.transport.send(request)
            if request.head.path == "/me" { try await Task.sleep(for: .milliseconds(2_500)) }
            return response
        })
        return try await h.signedInClient("alice", container: container)
    }

    @Test func aSlowResponseFromAServerInStepIsNoSkew() async throws {
        try await Harness.run { h in
            let client = try await Self.slowClient(h)
            #expect(try await client.send(.get, h.url("me")).status == .ok)
            #expect(client.session.clockSkew == 0)
        }
    }

    @Test func aServerBehindIsSeenThroughASlowResponse() async throws {
        try await Harness.run { h in
            let client = try await Self.slowClient(h)
            h.server.clock.advance(by: -100)
            #expect(try await client.send(.get, h.url("me")).status == .ok)
            // Stamped between the sending and 2.5 s before the arrival: no later than 1 s past
            // the sending by the server's clock (the header's resolution), and not much earlier.
            #expect(client.session.clockSkew > -100 && client.session.clockSkew < -90)
        }
    }

    /// CI caught this as three requests refused after a renewal (`rejectedAfterRenewal`) under
    /// two-second tokens on a loaded machine: the renewed token's answer left the server in the
    /// second after the token was minted, the client counted its expiry from that `Date`, and
    /// the server refused the token while the client still held it good.
    @Test(arguments: [Duration.milliseconds(1_200), .milliseconds(2_300)])
    func aRenewalAnsweredSlowlyNeverOutlivesTheServersExpiry(heldFor delay: Duration) async throws {
        try await Harness.run { h in
            try await h.register("alice")
            let tokens = try await h.login("alice")
            let refresher = OAuth2RefreshTokenRefresher(tokenEndpoint: h.url("auth/refresh"), clientID: "integration-tests", transport: h.transport)
            h.server.faults.inject(.slowAnswer(delay), path: "/auth/refresh", times: 1)
            let sent = Date()
            let renewed = try await refresher.refresh(tokens)
            let claims = try h.server.state.signer.verify(renewed.accessToken.reveal)
            let expiry = try #require(renewed.expiresAt)
            #expect(expiry <= Date(timeIntervalSince1970: Double(claims.exp)), "the client holds the token \(expiry.timeIntervalSince1970 - Double(claims.exp)) s past the server's exp")
            // Not earlier than a token minted in the second the request went out: the answer's
            // delay does not shorten it. (A loaded server may mint later than that second, so
            // the bound is the sending time, not the server's exp.)
            let lifetime = Double(claims.exp - claims.iat)
            #expect(expiry > Date(timeIntervalSince1970: sent.timeIntervalSince1970.rounded(.down) + lifetime - 0.5), "the client holds the token \(sent.timeIntervalSince1970.rounded(.down) + lifetime - expiry.timeIntervalSince1970) s less than a token minted when the request was sent")
        }
    }
}
