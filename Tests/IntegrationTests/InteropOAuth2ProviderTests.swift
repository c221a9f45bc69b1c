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
import AuthTesting
import CryptoExtras
import JWTKit
import Foundation
import HTTPTypes
import Synchronization
import Testing

/// AuthOAuth2 against an independent authorization server: Authlib's (`Interop/authlib_provider.py`)
/// over real HTTP. Discovery (RFC 8414), client credentials with both secret methods, the
/// authorization code flow with PKCE and RFC 9207's `iss`, refresh, revocation (RFC 7009).
@Suite(.enabled(if: InteropPeer.shouldRun, InteropPeer.disabledNote), .timeLimit(.minutes(10)))
struct InteropOAuth2ProviderTests {
    static let redirectURI = URL(string: "http://127.0.0.1:5555/callback")!

    /// The provider of a running peer, discovered from its issuer.
    static func provider(_ peer: InteropPeer, transport: any Transport) throws -> OAuth2Provider {
        let port = try #require(peer.base.port)
        return OAuth2Provider(issuer: try #require(URL(string: "http://127.0.0.1:\(port)")), transport: transport)
    }

    @Test func discoveryReadsTheProvidersMetadata() async throws {
        try await InteropPeer.run("authlib_provider.py", accessSeconds: 300) { peer in
            try await HTTPClientTransport.withTransport { transport in
                let metadata = try await Self.provider(peer, transport: transport).metadata()
                #expect(metadata.tokenEndpoint == peer.url("oauth/token"))
                #expect(metadata.authorizationEndpoint == peer.url("authorize"))
                #expect(metadata.revocationEndpoint == peer.url("oauth/revoke"))
                #expect(metadata.codeChallengeMethodsSupported == ["S256"])
                #expect(metadata.authorizationResponseIssParameterSupported == true)
            }
        }
    }

    /// Issue 51: `svc-spaced`'s secret holds a space, `+`, `&`, `=`, `%`, `:` and `/`; Authlib decodes Basic
    /// credentials with percent-decoding only, so a space sent as `+` was refused.
    @Test(arguments: [
        ("svc-basic", OAuth2ClientAuthentication.clientSecretBasic(secret: Secret("svc-basic-s3cret"))),
        ("svc-spaced", .clientSecretBasic(secret: Secret("a secret with spaces+plus&amp=%:colon/slash"))),
        ("svc-post", .clientSecretPost(secret: Secret("svc-post-s3cret"))),
    ])
    func clientCredentialsRenewOncePerExpiryForFiftyConcurrentRequests(clientID: String, authentication: OAuth2ClientAuthentication) async throws {
        try await InteropPeer.run("authlib_provider.py", accessSeconds: 300) { peer in
            try await HTTPClientTransport.withTransport { transport in
                let client = OAuth2Client(provider: try Self.provider(peer, transport: transport), clientID: clientID, authentication: authentication, transport: transport)
                let strategy = ClientCredentialsStrategy(client: client, scopes: ["read"], allowedHosts: AllowedHosts(origin: peer.base))
                let container = AuthContainer()
                container.useHTTPClient(transport)
                let service = container.makeClient(for: strategy.account(), strategy: strategy)
                for round in 1...3 {
                    let answers = try await concurrently(50) { _ in try await service.json(PeerSubject.self, .get, peer.url("api/me")) }
                    #expect(answers.allSatisfy { $0.sub == clientID && $0.scope == "read" }, "round \(round)")
                    #expect(try await peer.counters(transport)["client_credentials_grants"] == round, "round \(round)")
                    _ = try await transport.send(AuthRequest(method: .post, url: peer.url("_expire")))  // the server ends the token
                }
            }
        }
    }

    /// The issue's figure: 500 concurrent requests across an expiry, one token request.
    @Test func fiveHundredConcurrentRequestsAcrossAnExpiryMakeOneTokenRequest() async throws {
        try await InteropPeer.run("authlib_provider.py", accessSeconds: 300) { peer in
            try await HTTPClientTransport.withTransport { transport in
                let client = OAuth2Client(provider: try Self.provider(peer, transport: transport), clientID: "svc-basic", authentication: .clientSecretBasic(secret: Secret("svc-basic-s3cret")), transport: transport)
                let strategy = ClientCredentialsStrategy(client: client, scopes: ["read", "write"], allowedHosts: AllowedHosts(origin: peer.base))
                let container = AuthContainer()
                container.useHTTPClient(transport)
                let service = container.makeClient(for: strategy.account(), strategy: strategy)
                #expect(try await service.json(PeerSubject.self, .get, peer.url("api/me")).scope == "read write")
                _ = try await transport.send(AuthRequest(method: .post, url: peer.url("_expire")))
                let statuses = try await concurrently(500) { _ in try await service.send(.get, peer.url("api/me")).status.code }
                #expect(statuses.allSatisfy { $0 == 200 })
                #expect(try await peer.counters(transport)["client_credentials_grants"] == 2)  // the first token, and one renewal
            }
        }
    }

    @Test func aWrongClientSecretIsAConfigurationError() async throws {
        try await InteropPeer.run("authlib_provider.py", accessSeconds: 300) { peer in
            try await HTTPClientTransport.withTransport { transport in
                let client = OAuth2Client(provider: try Self.provider(peer, transport: transport), clientID: "svc-basic", authentication: .clientSecretBasic(secret: Secret("not-the-s3cret")), transport: transport)
                let strategy = ClientCredentialsStrategy(client: client, allowedHosts: AllowedHosts(origin: peer.base))
                let container = AuthContainer()
                container.useHTTPClient(transport)
                let service = container.makeClient(for: strategy.account(), strategy: strategy)
                await #expect { try await service.send(.get, peer.url("api/me")) } throws: { error in
                    guard let error = error as? AuthError else { return false }
                    return error.code == .misconfigured && (error.underlying as? OAuth2Error)?.code == "invalid_client" && !error.message.contains("not-the-s3cret")
                }
            }
        }
    }

    /// The browser's part: follows the authorization URL to the provider's redirect.
    static func consent(_ pending: PendingAuthorization, transport: any Transport) async throws -> URL {
        let response = try await transport.send(AuthRequest(method: .get, url: pending.url))
        try #require(response.status.code == 302, "the authorize endpoint answered \(response.status.code): \(String(decoding: response.body, as: UTF8.self))")
        return try #require(response.head.headerFields[.location].flatMap(URL.init(string:)))
    }

    @Test func theCodeFlowWithPKCEGivesTokensThatRefreshAndRevoke() async throws {
        try await InteropPeer.run("authlib_provider.py", accessSeconds: 300) { peer in
            try await HTTPClientTransport.withTransport { transport in
                let app = OAuth2Client(provider: try Self.provider(peer, transport: transport), clientID: "app", transport: transport)
                let pending = try await app.startAuthorization(redirectURI: Self.redirectURI, scopes: ["read"])
                let redirect = try await Self.consent(pending, transport: transport)
                let tokens = try await app.completeAuthorization(pending, redirect: redirect)
                #expect(tokens.refreshToken != nil)

                let container = AuthContainer()
                container.useHTTPClient(transport)
                let alice = container.makeClient(for: AccountKey(namespace: "provider", account: "alice"), strategy: BearerStrategy(allowedHosts: AllowedHosts(origin: peer.base), refresher: app))
                try await alice.signIn(tokens)
                #expect(try await alice.json(PeerSubject.self, .get, peer.url("api/me")).sub == "alice")
                _ = try await transport.send(AuthRequest(method: .post, url: peer.url("_expire")))
                let answers = try await concurrently(20) { _ in try await alice.json(PeerSubject.self, .get, peer.url("api/me")).sub }
                #expect(answers.allSatisfy { $0 == "alice" })
                var counters = try await peer.counters(transport)
                #expect(counters["authorization_code_grants"] == 1)
                #expect(counters["refresh_token_grants"] == 1)

                // The same answer cannot be used twice: the provider has spent the code.
                await #expect { try await app.completeAuthorization(pending, redirect: redirect) } throws: { error in
                    (error as? AuthError)?.code == .authorizationFailed && ((error as? AuthError)?.underlying as? OAuth2Error)?.code == "invalid_grant"
                }

                let current = try #require(try await alice.session.vault.load(BearerTokenSet.self, for: alice.account))
                try await app.signOut(alice)
                counters = try await peer.counters(transport)
                #expect(counters["revoked_refresh_token"] == 1)
                #expect(counters["revoked_access_token"] == 1)
                let revoked = try await transport.send(AuthRequest(method: .get, url: peer.url("api/me"), headerFields: [.authorization: "Bearer \(current.accessToken.reveal)"]))
                #expect(revoked.status.code == 401)
                await #expect { try await alice.send(.get, peer.url("api/me")) } throws: { ($0 as? AuthError)?.code == .notSignedIn }
            }
        }
    }

    @Test func refusedForgedOrMixedUpAnswersAreTypedFailures() async throws {
        try await InteropPeer.run("authlib_provider.py", accessSeconds: 300) { peer in
            try await HTTPClientTransport.withTransport { transport in
                let app = OAuth2Client(provider: try Self.provider(peer, transport: transport), clientID: "app", transport: transport)
                func failure(_ pending: PendingAuthorization, _ redirect: URL) async -> AuthError? {
                    do { _ = try await app.completeAuthorization(pending, redirect: redirect); return nil } catch { return error as? AuthError }
                }
                // The user refuses: the provider's error comes through.
                let denied = try await app.startAuthorization(redirectURI: Self.redirectURI, scopes: ["read"], parameters: [("login_hint", "deny")])
                let refusal = await failure(denied, try await Self.consent(denied, transport: transport))
                #expect(refusal?.code == .authorizationFailed)
                #expect((refusal?.underlying as? OAuth2Error)?.code == "access_denied")

                // An answer to another authorization (a forged or replayed state).
                let first = try await app.startAuthorization(redirectURI: Self.redirectURI, scopes: ["read"])
                let second = try await app.startAuthorization(redirectURI: Self.redirectURI, scopes: ["read"])
                let answer = try await Self.consent(first, transport: transport)
                #expect(await failure(second, answer)?.message.contains("state") == true)

                // A mix-up: the answer names another issuer, or none though the provider sends one.
                let text = answer.absoluteString
                let otherIssuer = try #require(URL(string: text.replacingOccurrences(of: "iss=http%3A%2F%2F127.0.0.1", with: "iss=https%3A%2F%2Fevil.example")))
                #expect(await failure(first, otherIssuer)?.message.contains("RFC 9207") == true)
                let withoutIssuer = try #require(URL(string: text.replacingOccurrences(of: #"&iss=[^&]*"#, with: "", options: .regularExpression)))
                #expect(await failure(first, withoutIssuer)?.message.contains("no iss") == true)
                // The untouched answer still completes: none of the checks above spent it.
                #expect(try await app.completeAuthorization(first, redirect: answer).refreshToken != nil)
            }
        }
    }

    /// A sign-out whose revocation fails still signs out, and says so.
    @Test func aFailedRevocationIsReportedAndTheLocalCredentialRemoved() async throws {
        try await InteropPeer.run("authlib_provider.py", accessSeconds: 300) { peer in
            try await HTTPClientTransport.withTransport { transport in
                let discovered = try await Self.provider(peer, transport: transport).metadata()
                var metadata = discovered
                metadata.revocationEndpoint = peer.url("no-such-endpoint")
                let app = OAuth2Client(provider: OAuth2Provider(metadata: metadata), clientID: "app", transport: transport)
                let pending = try await app.startAuthorization(redirectURI: Self.redirectURI, scopes: ["read"])
                let tokens = try await app.completeAuthorization(pending, redirect: try await Self.consent(pending, transport: transport))
                let container = AuthContainer()
                container.useHTTPClient(transport)
                let recorder = EventRecorder(container[AuthEventsKey.self])
                let alice = container.makeClient(for: AccountKey(namespace: "provider", account: "alice"), strategy: BearerStrategy(allowedHosts: AllowedHosts(origin: peer.base), refresher: app))
                try await alice.signIn(tokens)
                try await app.signOut(alice)
                let events = await recorder.waitFor { $0.contains(.signedOut(alice.account)) }
                #expect(events.contains { if case .revocationFailed(alice.account, _) = $0 { true } else { false } })
                #expect(try await alice.session.vault.load(BearerTokenSet.self, for: alice.account) == nil)
                #expect(events.allSatisfy { !$0.description.contains(tokens.accessToken.reveal) })
            }
        }
    }
}

/// `GET /api/me` of the provider peer.
struct PeerSubject: Decodable {
    let sub: String
    let client_id: String
    let scope: String
}
