// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthHTTPClient
import AuthOAuth2
import Foundation
import HTTPTypes
import Testing

/// The bearer flow against an Authlib OAuth 2.0 authorization server (`Interop/authlib_server.py`):
/// first tokens from the password grant, renewal through the refresh_token grant, which issues
/// a new refresh token each time and revokes the old one (reuse revokes the whole family).
@Suite(.enabled(if: InteropPeer.shouldRun, InteropPeer.disabledNote), .timeLimit(.minutes(10)))
struct InteropAuthlibTests {
    static let clientID = "interop-tests"

    @Test func hundredConcurrentRequestsAcrossAnExpiryRefreshOnceAndAdoptTheRotatedToken() async throws {
        try await InteropPeer.run("authlib_server.py", accessSeconds: 2) { peer in
            try await HTTPClientTransport.withTransport { transport in
                let alice = peer.bearerClient("alice", transport: transport, policy: .scaledToShortTokens)
                // A fresh token is not renewed, and the burst crosses its expiry.
                let (renewedBefore, signIns) = try await peer.signInWithAFreshToken(alice, transport: transport, renewals: "refresh_token_grants") {
                    try await Self.passwordGrant("alice", peer: peer, transport: transport)
                }

                let answers = try await peer.burstAcrossExpiry(alice)
                #expect(answers.count == 100)
                #expect(answers.allSatisfy { $0 == (200, "alice") })
                var counters = try await peer.counters(transport)
                #expect(counters["refresh_token_grants"] == renewedBefore + 1)
                #expect(counters["rejected_reuse"] == 0)

                // The next renewal (the server ends the token: a 401) presents the rotated
                // refresh token, not the revoked one.
                _ = try await transport.send(AuthRequest(method: .post, url: peer.url("_expire")))
                #expect(try await alice.json(PeerProfile.self, .get, peer.url("api/me")).username == "alice")
                counters = try await peer.counters(transport)
                #expect(counters["refresh_token_grants"] == renewedBefore + 2)
                #expect(counters["rejected_reuse"] == 0)
                #expect(counters["password_grants"] == signIns)
            }
        }
    }

    /// Issue 51: a wrong password at the token endpoint surfaced as `renewalFailed` (Authlib
    /// answers `invalid_request` "Invalid 'username' or 'password' in request."); it is
    /// `invalidCredentials`, and the right one still signs in.
    @Test func aWrongPasswordAtThePasswordGrantIsInvalidCredentials() async throws {
        try await InteropPeer.run("authlib_server.py") { peer in
            try await HTTPClientTransport.withTransport { transport in
                let endpoint = OAuth2TokenEndpoint(url: peer.url("oauth/token"), clientID: Self.clientID, transport: transport)
                let error = await #expect(throws: AuthError.self) { try await endpoint.passwordGrant(username: "alice", password: "wrong horse") }
                #expect(error?.code == .invalidCredentials)
                #expect(error?.message.contains("wrong horse") == false)
                let tokens = try await endpoint.passwordGrant(username: "alice", password: InteropFlaskJWTTests.password)
                #expect(!tokens.accessToken.reveal.isEmpty)
                let counters = try await peer.counters(transport)
                #expect(counters["password_grants"] == 1)  // the refused one issued nothing
            }
        }
    }

    /// The first tokens: the password grant (RFC 6749 §4.3) for the public client.
    static func passwordGrant(_ username: String, peer: InteropPeer, transport: any Transport) async throws -> BearerTokenSet {
        try await OAuth2TokenEndpoint(url: peer.url("oauth/token"), clientID: clientID, transport: transport)
            .passwordGrant(username: username, password: InteropFlaskJWTTests.password)
    }
}
