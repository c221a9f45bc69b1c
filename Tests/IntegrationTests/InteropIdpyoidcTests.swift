// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthHTTPClient
import AuthOAuth2
import AuthTesting
import Foundation
import HTTPTypes
import JWTKit
import Testing

/// AuthOAuth2 against a second independent provider: idpyoidc's OpenID Connect provider
/// (`Interop/idpyoidc_provider.py`) over real HTTP, for what Authlib does not serve: pushed
/// authorization requests (RFC 9126) and request objects (RFC 9101) signed with the client's
/// `private_key_jwt` key, RP-initiated logout through the loopback listener, and step-up
/// (RFC 9470) at the `acr` a resource asks for. Each test registers its client at the
/// provider's registration endpoint (RFC 7591).
@Suite(.enabled(if: InteropPeer.shouldRun, InteropPeer.disabledNote), .timeLimit(.minutes(10)))
struct InteropIdpyoidcTests {
    static let mfa = "urn:peer:acr:mfa"
    static let password = "urn:peer:acr:password"

    /// The provider of a running peer, discovered from its issuer (OpenID Connect Discovery).
    static func provider(_ peer: InteropPeer, transport: any Transport) throws -> OAuth2Provider {
        let port = try #require(peer.base.port)
        return OAuth2Provider(issuer: try #require(URL(string: "http://127.0.0.1:\(port)")), discovery: .openIDConfiguration, transport: transport)
    }

    /// A client registered at the peer (RFC 7591) that authenticates with `private_key_jwt`
    /// (ES256) and signs its request objects with the same key; its loopback redirect URIs
    /// (`/callback`, and `/logged-out` after a logout) on any port (RFC 8252 §7.3).
    static func registeredClient(_ peer: InteropPeer, transport: any Transport) async throws -> OAuth2Client {
        let key = ES256PrivateKey()
        let point = try #require(key.publicKey.parameters)
        let registration: [String: Any] = [
            "redirect_uris": ["http://127.0.0.1/callback"], "post_logout_redirect_uri": "http://127.0.0.1/logged-out",
            "token_endpoint_auth_method": "private_key_jwt", "token_endpoint_auth_signing_alg": "ES256", "request_object_signing_alg": "ES256",
            "grant_types": ["authorization_code", "refresh_token"], "response_types": ["code"],
            "jwks": ["keys": [["kty": "EC", "crv": "P-256", "x": point.x, "y": point.y, "kid": "rp-key", "use": "sig"]]],
        ]
        let body = try JSONSerialization.data(withJSONObject: registration)
        let response = try await transport.send(AuthRequest(method: .post, url: peer.url("registration"), headerFields: [.contentType: "application/json"], body: body))
        try #require(response.status.code == 201, "registration answered \(response.status.code): \(String(decoding: response.body, as: UTF8.self))")
        let clientID = try #require((try JSONSerialization.jsonObject(with: response.body) as? [String: Any])?["client_id"] as? String)
        let provider = try Self.provider(peer, transport: transport)
        let signer = await PrivateKeyJWT(es256: key, kid: "rp-key")
        return OAuth2Client(provider: provider, clientID: clientID, authentication: .privateKeyJWT(signer), transport: transport)
    }

    /// An account of the peer's user, signed in with `tokens`, on a container whose events `recorder` follows.
    static func account(_ peer: InteropPeer, app: OAuth2Client, transport: HTTPClientTransport, tokens: BearerTokenSet) async throws -> (AccountClient<BearerStrategy>, EventRecorder) {
        let container = AuthContainer()
        container.useHTTPClient(transport)
        let recorder = EventRecorder(container[AuthEventsKey.self])
        let alice = container.makeClient(for: AccountKey(namespace: "idpyoidc", account: "alice"), strategy: BearerStrategy(allowedHosts: AllowedHosts(origin: peer.base), refresher: app))
        try await alice.signIn(tokens)
        return (alice, recorder)
    }

    @Test func discoveryDecodesPushedRequestsAndLogout() async throws {
        try await InteropPeer.run("idpyoidc_provider.py", accessSeconds: 300, arguments: ["--require-par"]) { peer in
            try await HTTPClientTransport.withTransport { transport in
                let metadata = try await Self.provider(peer, transport: transport).metadata()
                #expect(metadata.pushedAuthorizationRequestEndpoint == peer.url("par"))
                #expect(metadata.requirePushedAuthorizationRequests == true)
                #expect(metadata.endSessionEndpoint == peer.url("session"))
            }
        }
    }

    /// PAR with a signed request object: the browser's URL carries the `request_uri`, and none
    /// of `state`, `nonce`, the PKCE challenge or the `acr_values` asked for; the code exchange
    /// and the ID token hold, and the ID token names the `acr` asked for inside the request.
    @Test func aPushedSignedRequestSignsInEndToEnd() async throws {
        try await InteropPeer.run("idpyoidc_provider.py", accessSeconds: 300) { peer in
            try await HTTPClientTransport.withTransport { transport in
                let app = try await Self.registeredClient(peer, transport: transport)
                let listener = try await LoopbackRedirectListener.bind()
                let pending = try await app.startAuthorization(redirectURI: listener.redirectURI, scopes: ["openid"], parameters: [("acr_values", Self.mfa)], pushed: true, signed: true)
                let query = try #require(URLComponents(url: pending.url, resolvingAgainstBaseURL: false)?.queryItems)
                #expect(query.contains { $0.name == "request_uri" && $0.value?.hasPrefix("urn:") == true })
                #expect(!query.contains { ["state", "nonce", "code_challenge", "request", "acr_values"].contains($0.name) })
                let browser = InteropBrowser(transport: transport)
                async let redirect = listener.waitForRedirect(of: pending, timeout: .seconds(60))
                try await browser.follow(pending.url)
                let tokens = try await app.completeAuthorization(pending, redirect: try await redirect)
                let claims = try await app.validateIDToken(try #require(tokens.idToken).reveal, nonce: pending.nonce)
                #expect(claims.authenticationContextClass == Self.mfa)
                let counters = try await peer.counters(transport)
                #expect(counters["pushed_authorization"] == 1)
                #expect(counters["authorization"] == 1)
            }
        }
    }

    /// A provider that requires pushed requests gets every one pushed without the caller
    /// asking; the same request in the browser's URL is refused by it.
    @Test func aProviderThatRequiresPushedRequestsGetsThemPushed() async throws {
        try await InteropPeer.run("idpyoidc_provider.py", accessSeconds: 300, arguments: ["--require-par"]) { peer in
            try await HTTPClientTransport.withTransport { transport in
                let app = try await Self.registeredClient(peer, transport: transport)
                let browser = InteropBrowser(transport: transport)
                let tokens = try await app.signInWithBrowser(scopes: ["openid"], timeout: .seconds(60)) { try await browser.follow($0) }
                #expect(tokens.idToken != nil)
                var counters = try await peer.counters(transport)
                #expect(counters["pushed_authorization"] == 1)
                #expect(counters["unpushed_authorization_refused"] == 0)
                // What a client that ignores the requirement sends: refused.
                var metadata = try await app.provider.metadata()
                metadata.requirePushedAuthorizationRequests = nil
                let unaware = OAuth2Client(provider: OAuth2Provider(metadata: metadata), clientID: app.clientID, authentication: app.authentication, transport: transport)
                let plain = try await unaware.startAuthorization(redirectURI: URL(string: "http://127.0.0.1:5555/callback")!, scopes: ["openid"])
                #expect(try await browser.status(plain.url) == 400)
                counters = try await peer.counters(transport)
                #expect(counters["unpushed_authorization_refused"] == 1)
            }
        }
    }

    /// Hostile: a `request_uri` pushed at one provider, sent to another (a mix-up, or an
    /// attacker's link) with a client id the other knows: the other provider cannot resolve it;
    /// an answer naming the other provider does not complete the first one's authorization
    /// (RFC 9207 `iss`); the first provider still honours its own request URI.
    @Test func aRequestURIFromAnotherProviderIsRefused() async throws {
        try await InteropPeer.run("idpyoidc_provider.py", accessSeconds: 300) { first in
            try await InteropPeer.run("idpyoidc_provider.py", accessSeconds: 300) { second in
                try await HTTPClientTransport.withTransport { transport in
                    let redirectURI = URL(string: "http://127.0.0.1:5555/callback")!
                    let app = try await Self.registeredClient(first, transport: transport)
                    let elsewhere = try await Self.registeredClient(second, transport: transport)
                    let pending = try await app.startAuthorization(redirectURI: redirectURI, scopes: ["openid"], pushed: true, signed: true)
                    var moved = try #require(URLComponents(url: pending.url, resolvingAgainstBaseURL: false))
                    moved.port = second.base.port
                    moved.queryItems = moved.queryItems?.map { $0.name == "client_id" ? URLQueryItem(name: "client_id", value: elsewhere.clientID) : $0 }
                    let browser = InteropBrowser(transport: transport)
                    let refusal = try await browser.get(try #require(moved.url))
                    #expect(refusal.status.code == 400)
                    #expect(String(decoding: refusal.body, as: UTF8.self).contains("request_uri"))
                    let issuer = second.base.absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
                    let forged = try #require(URL(string: "\(redirectURI.absoluteString)?code=abc&state=\(pending.state)&iss=\(FormURLEncoding.encode(issuer))"))
                    await #expect { _ = try await app.completeAuthorization(pending, redirect: forged) } throws: { error in
                        (error as? AuthError)?.code == .authorizationFailed && (error as? AuthError)?.message.contains("RFC 9207") == true
                    }
                    #expect(try await browser.status(pending.url) == 302)
                }
            }
        }
    }

    /// RP-initiated logout: `id_token_hint`, the loopback listener as `post_logout_redirect_uri`,
    /// `state` checked; the provider's session ends and the account is signed out here. A
    /// redirect to another origin, or one without the state, is refused.
    @Test func logoutEndsTheProviderSessionThroughTheLoopbackListener() async throws {
        try await InteropPeer.run("idpyoidc_provider.py", accessSeconds: 300) { peer in
            try await HTTPClientTransport.withTransport { transport in
                let app = try await Self.registeredClient(peer, transport: transport)
                let browser = InteropBrowser(transport: transport)
                let tokens = try await app.signInWithBrowser(scopes: ["openid"], timeout: .seconds(60)) { try await browser.follow($0) }
                let (alice, recorder) = try await Self.account(peer, app: app, transport: transport, tokens: tokens)

                try await app.signOutWithBrowser(alice, timeout: .seconds(60)) { url in
                    #expect(url.absoluteString.hasPrefix(peer.url("session").absoluteString))
                    try await browser.follow(url)
                }
                #expect(try await peer.counters(transport)["logouts"] == 1)
                let events = await recorder.waitFor { $0.contains(.signedOut(alice.account)) }
                #expect(events.contains(.signedOut(alice.account)))
                #expect(try await alice.session.vault.load(BearerTokenSet.self, for: alice.account) == nil)

                // Hostile: the redirect after a logout to a foreign origin, or without the state.
                let listener = URL(string: "http://127.0.0.1:5556/logged-out")!
                let logout = try await app.startLogout(idToken: tokens.idToken, postLogoutRedirectURI: listener)
                #expect(!logout.description.contains(try #require(tokens.idToken).reveal))
                let state = try #require(logout.state)
                let foreign = try #require(URL(string: "http://evil.example:5556/logged-out?state=\(state)"))
                #expect { try app.completeLogout(logout, redirect: foreign) } throws: { error in
                    (error as? AuthError)?.code == .logoutFailed && (error as? AuthError)?.message.contains("evil.example") == true
                }
                let forged = try #require(URL(string: "http://127.0.0.1:5556/logged-out?state=forged"))
                #expect { try app.completeLogout(logout, redirect: forged) } throws: { ($0 as? AuthError)?.code == .logoutFailed }
                try app.completeLogout(logout, redirect: try #require(URL(string: "http://127.0.0.1:5556/logged-out?state=\(state)")))
            }
        }
    }

    /// Step-up (RFC 9470): a token from a password sign-in is refused by a resource that needs
    /// the MFA level; the client says so (typed error and event, with the acr and max_age) and
    /// does not renew; one call signs in again at that level, and the account's next request
    /// passes with the new token.
    @Test func stepUpSignsInAgainAtTheLevelTheResourceAsksFor() async throws {
        try await InteropPeer.run("idpyoidc_provider.py", accessSeconds: 300) { peer in
            try await HTTPClientTransport.withTransport { transport in
                let app = try await Self.registeredClient(peer, transport: transport)
                let browser = InteropBrowser(transport: transport)
                let first = try await app.signInWithBrowser(scopes: ["openid"], timeout: .seconds(60)) { try await browser.follow($0) }
                let (alice, recorder) = try await Self.account(peer, app: app, transport: transport, tokens: first)

                var challenge: StepUpChallenge?
                do {
                    _ = try await alice.send(.get, peer.url("api/acr").appending(queryItems: [URLQueryItem(name: "max_age", value: "600")]))
                    Issue.record("a password sign-in passed the MFA resource")
                } catch let error as AuthError {
                    #expect(error.code == .stepUpRequired)
                    #expect(error.account == alice.account)
                    challenge = error.underlying as? StepUpChallenge
                }
                let required = try #require(challenge)
                #expect(required == StepUpChallenge(reason: .userAuthentication, acrValues: [Self.mfa], maxAge: 600, status: 401))
                let events = await recorder.waitFor { $0.contains(.stepUpRequired(alice.account, required)) }
                #expect(events.contains(.stepUpRequired(alice.account, required)))
                #expect(try await peer.counters(transport)["token"] == 1)  // no renewal was tried

                // A browser without the first sign-in's session: idpyoidc 5.0.0 answers acr_values
                // with the session it has (password) rather than authenticating again, which
                // checkStepUp then refuses, as aLowerAcrDoesNotSatisfyAStepUp shows.
                let freshBrowser = InteropBrowser(transport: transport)
                try await app.stepUp(alice, for: required, scopes: ["openid"], timeout: .seconds(60)) { try await freshBrowser.follow($0) }
                let answer = try await alice.send(.get, peer.url("api/acr"))
                #expect(answer.status.code == 200)
                #expect(String(decoding: answer.body, as: UTF8.self).contains(Self.mfa))
            }
        }
    }

    /// Hostile: a provider that signs the user in at a lower level than the resource asked for
    /// does not satisfy the step-up; the account keeps its tokens.
    @Test func aLowerAcrDoesNotSatisfyAStepUp() async throws {
        try await InteropPeer.run("idpyoidc_provider.py", accessSeconds: 300, arguments: ["--no-mfa"]) { peer in
            try await HTTPClientTransport.withTransport { transport in
                let app = try await Self.registeredClient(peer, transport: transport)
                let browser = InteropBrowser(transport: transport)
                let first = try await app.signInWithBrowser(scopes: ["openid"], timeout: .seconds(60)) { try await browser.follow($0) }
                let (alice, _) = try await Self.account(peer, app: app, transport: transport, tokens: first)
                let challenge = StepUpChallenge(reason: .userAuthentication, acrValues: [Self.mfa], status: 401)
                await #expect { try await app.stepUp(alice, for: challenge, scopes: ["openid"], timeout: .seconds(60)) { try await browser.follow($0) } } throws: { error in
                    guard let error = error as? AuthError else { return false }
                    return error.code == .stepUpRequired && error.message.contains(Self.password)
                }
                #expect(try await alice.session.vault.load(BearerTokenSet.self, for: alice.account) == first)
                #expect(try await peer.counters(transport)["authorization"] == 2)  // the step-up's sign-in did happen
            }
        }
    }

    /// RFC 6750 §3.1: a 403 `insufficient_scope` with the scope the resource needs.
    @Test func insufficientScopeIsAStepUpWithTheScope() async throws {
        try await InteropPeer.run("idpyoidc_provider.py", accessSeconds: 300) { peer in
            try await HTTPClientTransport.withTransport { transport in
                let app = try await Self.registeredClient(peer, transport: transport)
                let browser = InteropBrowser(transport: transport)
                let tokens = try await app.signInWithBrowser(scopes: ["openid"], timeout: .seconds(60)) { try await browser.follow($0) }
                let (alice, recorder) = try await Self.account(peer, app: app, transport: transport, tokens: tokens)
                let expected = StepUpChallenge(reason: .scope, scope: ["write"], status: 403)
                await #expect { _ = try await alice.send(.get, peer.url("api/write")) } throws: { error in
                    (error as? AuthError)?.code == .stepUpRequired && (error as? AuthError)?.underlying as? StepUpChallenge == expected
                }
                let events = await recorder.waitFor { $0.contains(.stepUpRequired(alice.account, expected)) }
                #expect(events.contains(.stepUpRequired(alice.account, expected)))
                #expect(try await peer.counters(transport)["token"] == 1)
            }
        }
    }
}
