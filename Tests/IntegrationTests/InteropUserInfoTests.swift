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

/// The OpenID Connect userinfo endpoint with an account's token, against Authlib's
/// `UserInfoEndpoint` and idpyoidc's: the answer's `sub` must be the ID token's.
@Suite(.enabled(if: InteropPeer.shouldRun, InteropPeer.disabledNote), .timeLimit(.minutes(10)))
struct InteropUserInfoTests {
    @Test func theAccountsUserInfoMatchesItsIDTokenAndASubstitutionIsRefused() async throws {
        try await InteropPeer.run("authlib_provider.py", accessSeconds: 300) { peer in
            try await HTTPClientTransport.withTransport { transport in
                let app = OAuth2Client(provider: try InteropOAuth2ProviderTests.provider(peer, transport: transport), clientID: "app", transport: transport)
                let tokens = try await InteropClientRegistrationTests.signIn(app, scopes: ["openid", "profile"], transport: transport)
                let container = AuthContainer()
                container.useHTTPClient(transport)
                let alice = container.makeClient(for: AccountKey(namespace: "app", account: "alice"), strategy: BearerStrategy(allowedHosts: AllowedHosts(origin: peer.base), refresher: app))
                try await alice.signIn(tokens)

                let info = try await app.userInfo(for: alice)
                #expect(info.subject == "alice" && info.name == "Alice" && info.email == "alice@example.org" && info.emailVerified == true)
                #expect(info.claims["email"] == .string("alice@example.org"))
                #expect(try await app.userInfo(with: tokens).subject == "alice")

                // The provider answers for another user: refused, typed, both ways.
                let form = FormURLEncoding.body([("sub", "mallory")])
                _ = try await transport.send(AuthRequest(method: .post, url: peer.url("_userinfo"), headerFields: [.contentType: "application/x-www-form-urlencoded"], body: form))
                await #expect { try await app.userInfo(for: alice) } throws: { ($0 as? AuthError)?.code == .authorizationFailed }
                await #expect { try await app.userInfo(with: tokens) } throws: { ($0 as? AuthError)?.code == .authorizationFailed }
                #expect(try await peer.counters(transport)["userinfo"] == 4)
            }
        }
    }

    /// Scoped origins: an account whose strategy does not allow the provider's origin sends no
    /// token there, and the provider's refusal is a typed error.
    @Test func anAccountNotAllowedAtTheProviderSendsItNoToken() async throws {
        try await InteropPeer.run("authlib_provider.py", accessSeconds: 300) { peer in
            try await HTTPClientTransport.withTransport { transport in
                let app = OAuth2Client(provider: try InteropOAuth2ProviderTests.provider(peer, transport: transport), clientID: "app", transport: transport)
                let container = AuthContainer()
                container.useHTTPClient(transport)
                let elsewhere = container.makeClient(for: AccountKey(namespace: "app", account: "alice"), strategy: BearerStrategy(allowedHosts: AllowedHosts(["api.example.com"]), refresher: app))
                try await elsewhere.signIn(try await InteropClientRegistrationTests.signIn(app, scopes: ["openid"], transport: transport))
                await #expect { try await app.userInfo(for: elsewhere) } throws: { ($0 as? AuthError)?.status == 401 }
                #expect(try await peer.counters(transport)["userinfo"] == 0)
            }
        }
    }

    @Test func idpyoidcsUserInfoMatchesItsIDToken() async throws {
        try await InteropPeer.run("idpyoidc_provider.py", accessSeconds: 300) { peer in
            try await HTTPClientTransport.withTransport { transport in
                let provider = try InteropIdpyoidc.provider(peer, transport: transport)
                let (app, _) = try await InteropIdpyoidc.client(ClientMetadata(
                    redirectURIs: [URL(string: "http://127.0.0.1/callback")!], grantTypes: ["authorization_code", "refresh_token"], responseTypes: ["code"],
                    tokenEndpointAuthMethod: "client_secret_basic", scope: "openid"), provider: provider, transport: transport)
                let tokens = try await InteropClientRegistrationTests.signIn(app, scopes: ["openid"], transport: transport)
                let subject = try await app.validateIDToken(try #require(tokens.idToken?.reveal), nonce: nil).subject
                #expect(try await app.userInfo(with: tokens).subject == subject)
                await #expect { try await app.userInfo(with: tokens, expectedSubject: "mallory") } throws: { ($0 as? AuthError)?.code == .authorizationFailed }
            }
        }
    }
}

/// `client_secret_jwt` (RFC 7523 with HS256 over the client secret) against Authlib's assertion
/// checks, for a client registered with it.
@Suite(.enabled(if: InteropPeer.shouldRun, InteropPeer.disabledNote), .timeLimit(.minutes(10)))
struct InteropClientSecretJWTTests {
    @Test func aRegisteredServiceAuthenticatesWithAnHS256Assertion() async throws {
        try await InteropPeer.run("authlib_provider.py", accessSeconds: 300) { peer in
            try await HTTPClientTransport.withTransport { transport in
                let provider = try InteropOAuth2ProviderTests.provider(peer, transport: transport)
                let registration = try await ClientRegistrar(provider: provider, transport: transport).register(ClientMetadata(
                    clientName: "billing", grantTypes: ["client_credentials"], tokenEndpointAuthMethod: "client_secret_jwt", scope: "read"))
                let client = try OAuth2Client(provider: provider, registration: registration, transport: transport)
                guard case .clientSecretJWT = client.authentication else { Issue.record("not client_secret_jwt: \(client.authentication.methodName)"); return }
                let strategy = ClientCredentialsStrategy(client: client, scopes: ["read"], allowedHosts: AllowedHosts(origin: peer.base))
                let container = AuthContainer()
                container.useHTTPClient(transport)
                let service = container.makeClient(for: strategy.account(), strategy: strategy)
                #expect(try await service.json(PeerSubject.self, .get, peer.url("api/me")).sub == registration.clientID)
                #expect(try await peer.counters(transport)["client_secret_jwt_assertions"] == 1)

                // The secret itself is never in the request: only an assertion MACed with it.
                var request = try AuthRequest(method: .post, url: peer.url("oauth/token"))
                var form: [(String, String)] = []
                let secret = try #require(registration.clientSecret)
                try await client.authentication.apply(to: &request, form: &form, clientID: client.clientID, endpoint: peer.url("oauth/token"))
                #expect(!form.contains { $0.1.contains(secret.reveal) } && request.head.headerFields[.authorization] == nil)

                // A wrong secret: the provider refuses the client, typed.
                let wrong = OAuth2Client(provider: provider, clientID: registration.clientID, authentication: .clientSecretJWT(secret: Secret("not-the-secret-but-long-enough-0123456789")), transport: transport)
                await #expect { try await wrong.tokenEndpoint().requestTokens([("grant_type", "client_credentials")]) } throws: { ($0 as? AuthError)?.code == .misconfigured }
            }
        }
    }
}
