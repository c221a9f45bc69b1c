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

/// Bearer tokens against django-oauth-toolkit (`Interop/django_oauth_toolkit_server.py`): its
/// token endpoint (password grant, rotating refresh tokens), its own `ProtectedResourceView`
/// (every refused token: a bare 403, no challenge), its RFC 9728 views (401 or 403 with a
/// challenge) and Django REST framework's `OAuth2Authentication` (401 `invalid_token`). An
/// access token is revoked by the peer's `/_revoke_access`, as an administrator would; its
/// refresh token stays good.
@Suite(.enabled(if: InteropPeer.shouldRun, InteropPeer.disabledNote), .timeLimit(.minutes(10)))
struct InteropDjangoOAuthToolkitTests {
    static let clientID = "interop-tests"

    /// Issue 51: a wrong password at the password grant (`invalid_grant`) is
    /// `invalidCredentials`; a revoked token at DRF (401 `invalid_token`) is renewed once.
    @Test func aRevokedTokenIsRenewedOnceAndAWrongPasswordIsInvalidCredentials() async throws {
        try await InteropPeer.run("django_oauth_toolkit_server.py", accessSeconds: 300) { peer in
            try await HTTPClientTransport.withTransport { transport in
                let endpoint = OAuth2TokenEndpoint(url: peer.url("o/token/"), clientID: Self.clientID, transport: transport)
                let error = await #expect(throws: AuthError.self) { try await endpoint.passwordGrant(username: "alice", password: "wrong horse") }
                #expect(error?.code == .invalidCredentials)

                let alice = try await Self.client(peer, transport: transport, bareForbidden: false)
                try await Self.revoke("alice", peer: peer, transport: transport)
                let answers = try await concurrently(50) { _ in try await alice.json(PeerProfile.self, .get, peer.url("drf/me")).username }
                #expect(answers == Array(repeating: "alice", count: 50))
                let counters = try await peer.counters(transport)
                #expect(counters["refresh_grants"] == 1)
            }
        }
    }

    /// Issue 51: DOT's own `ProtectedResourceView` answers a revoked token with a bare 403. By
    /// default that is returned as it is (a bare 403 usually means "not allowed"); with
    /// `treatsBareForbiddenAsRejected` the token is renewed once and the request succeeds. A 403
    /// with `insufficient_scope` is never renewed: it fails as a step-up (issue 55).
    @Test func aBareForbiddenIsARejectedTokenOnlyWhenTheStrategySaysSo() async throws {
        try await InteropPeer.run("django_oauth_toolkit_server.py", accessSeconds: 300) { peer in
            try await HTTPClientTransport.withTransport { transport in
                let plain = try await Self.client(peer, transport: transport, bareForbidden: false)
                try await Self.revoke("alice", peer: peer, transport: transport)
                #expect(try await plain.send(.get, peer.url("api/me")).status == .forbidden)
                #expect(try await peer.counters(transport)["refresh_grants"] == 0)

                let bob = try await Self.client(peer, transport: transport, bareForbidden: true, username: "bob")
                try await Self.revoke("bob", peer: peer, transport: transport)
                #expect(try await bob.json(PeerProfile.self, .get, peer.url("api/me")).username == "bob")
                #expect(try await peer.counters(transport)["refresh_grants"] == 1)

                // insufficient_scope: a step-up (issue 55), not a renewal.
                await #expect { _ = try await bob.send(.get, peer.url("api/admin-rfc9728")) } throws: { error in
                    (error as? AuthError)?.code == .stepUpRequired && ((error as? AuthError)?.underlying as? StepUpChallenge)?.reason == .scope
                }
                #expect(try await peer.counters(transport)["refresh_grants"] == 1)
            }
        }
    }

    /// A client of `username` signed in with the password grant, renewing at the token endpoint.
    static func client(_ peer: InteropPeer, transport: HTTPClientTransport, bareForbidden: Bool, username: String = "alice") async throws -> AccountClient<BearerStrategy> {
        let endpoint = OAuth2TokenEndpoint(url: peer.url("o/token/"), clientID: clientID, transport: transport)
        let container = AuthContainer()
        container.useHTTPClient(transport)
        let refresher = OAuth2RefreshTokenRefresher(tokenEndpoint: peer.url("o/token/"), clientID: clientID, transport: transport)
        let strategy = BearerStrategy(allowedHosts: AllowedHosts(origin: peer.base), refresher: refresher, treatsBareForbiddenAsRejected: bareForbidden)
        let client = container.makeClient(for: AccountKey(namespace: "dot", account: username), strategy: strategy)
        try await client.signIn(try await endpoint.passwordGrant(username: username, password: InteropDjangoTests.password))
        #expect(try await client.json(PeerProfile.self, .get, peer.url("api/me")).username == username)
        return client
    }

    /// Expires `username`'s access tokens at the server, as an administrator would.
    static func revoke(_ username: String, peer: InteropPeer, transport: any Transport) async throws {
        let request = try AuthRequest(method: .post, url: peer.url("_revoke_access"), headerFields: [.contentType: "application/x-www-form-urlencoded"], body: FormURLEncoding.body([("username", username)]))
        let response = try await transport.send(request)
        try #require(response.status == .ok)
    }
}
