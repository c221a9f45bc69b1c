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

/// The loopback redirect listener of a command-line sign-in (RFC 8252 §7.3), with Authlib's
/// server and a "browser" that follows the authorization URL over real HTTP.
@Suite(.enabled(if: InteropPeer.shouldRun, InteropPeer.disabledNote), .timeLimit(.minutes(10)))
struct LoopbackSignInTests {
    /// Follows redirects as a browser does, returning the last response.
    static func browse(_ url: URL, transport: any Transport) async throws -> AuthResponse {
        var next = url
        for _ in 0..<5 {
            let response = try await transport.send(AuthRequest(method: .get, url: next))
            guard response.status.code == 302, let location = response.head.headerFields[.location], let target = URL(string: location, relativeTo: next) else { return response }
            next = target.absoluteURL
        }
        throw AuthError(code: .redirect, message: "too many redirects")
    }

    @Test func aBrowserSignInThroughTheLoopbackListener() async throws {
        try await InteropPeer.run("authlib_provider.py", accessSeconds: 300) { peer in
            try await HTTPClientTransport.withTransport { transport in
                let app = OAuth2Client(provider: try InteropOAuth2ProviderTests.provider(peer, transport: transport), clientID: "app", transport: transport)
                let browser = Browser(transport: transport)
                let tokens = try await app.signInWithBrowser(scopes: ["read"]) { url in browser.open(url) }
                #expect(tokens.refreshToken != nil)
                #expect(browser.shown?.absoluteString.contains("redirect_uri=http%3A%2F%2F127.0.0.1%3A") == true)
                let page = try await Self.waitFor { browser.page }
                #expect(page.status.code == 200)
                #expect(String(decoding: page.body, as: UTF8.self).contains("You can close this window"))
            }
        }
    }

    @Test func theListenerTakesOneRedirectAndTimesOut() async throws {
        try await HTTPClientTransport.withTransport { transport in
            let listener = try await LoopbackRedirectListener.bind(path: "/done")
            let port = try #require(listener.redirectURI.port)
            #expect(listener.redirectURI.absoluteString == "http://127.0.0.1:\(port)/done")
            let pending = Self.pending(state: "s", redirectURI: listener.redirectURI)
            let wait = Task { try await listener.waitForRedirect(of: pending, timeout: .seconds(60)) }
            let other = try await transport.send(AuthRequest(method: .get, url: URL(string: "http://127.0.0.1:\(port)/elsewhere?code=x")!))
            #expect(other.status.code == 404)
            let first = try await transport.send(AuthRequest(method: .get, url: URL(string: "http://127.0.0.1:\(port)/done?code=c1&state=s")!))
            #expect(first.status.code == 200)
            let second = try? await transport.send(AuthRequest(method: .get, url: URL(string: "http://127.0.0.1:\(port)/done?code=c2&state=s")!))
            #expect(second == nil || second?.status.code == 400)  // the path, but not the awaited redirect any more
            #expect(try await wait.value.absoluteString == "http://127.0.0.1:\(port)/done?code=c1&state=s")

            let idle = try await LoopbackRedirectListener.bind()
            await #expect { try await idle.waitForRedirect(of: Self.pending(state: "s", redirectURI: idle.redirectURI), timeout: .milliseconds(200)) } throws: {
                ($0 as? AuthError)?.code == .timeout
            }
        }
    }

    /// A pending authorization that redirects to `redirectURI` with `state`.
    static func pending(state: String, redirectURI: URL) -> PendingAuthorization {
        PendingAuthorization(
            url: URL(string: "https://id.example/authorize")!, state: state, nonce: nil, pkce: PKCE(),
            redirectURI: redirectURI, issuer: URL(string: "https://id.example")!
        )
    }

    /// Opens a URL on its own task, as a browser does, following the redirects.
    final class Browser: Sendable {
        let transport: any Transport
        private let state = Mutex<(shown: URL?, page: AuthResponse?)>((nil, nil))
        init(transport: any Transport) { self.transport = transport }
        var shown: URL? { state.withLock { $0.shown } }
        var page: AuthResponse? { state.withLock { $0.page } }
        func open(_ url: URL) {
            state.withLock { $0.shown = url }
            Task {
                let page = try await LoopbackSignInTests.browse(url, transport: transport)
                state.withLock { $0.page = page }
            }
        }
    }

    /// `read`'s value once it has one, for at most 30 s (at once when it has: the bound only
    /// decides how long a failing test takes, and a full run's loaded start delays tasks by seconds).
    static func waitFor<T>(_ read: () -> T?) async throws -> T {
        for _ in 0..<3_000 {
            if let value = read() { return value }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw AuthError(code: .timeout, message: "the browser did not finish")
    }
}

/// Token introspection (RFC 7662) against Authlib's endpoint.
@Suite(.enabled(if: InteropPeer.shouldRun, InteropPeer.disabledNote), .timeLimit(.minutes(10)))
struct InteropIntrospectionTests {
    @Test func aResourceServerLearnsWhoATokenIsForAndWhenItIsRevoked() async throws {
        try await InteropPeer.run("authlib_provider.py", accessSeconds: 300) { peer in
            try await HTTPClientTransport.withTransport { transport in
                let provider = try InteropOAuth2ProviderTests.provider(peer, transport: transport)
                let app = OAuth2Client(provider: provider, clientID: "app", transport: transport)
                let pending = try await app.startAuthorization(redirectURI: InteropOAuth2ProviderTests.redirectURI, scopes: ["read"])
                let tokens = try await app.completeAuthorization(pending, redirect: try await InteropOAuth2ProviderTests.consent(pending, transport: transport))
                let resourceServer = OAuth2Client(provider: provider, clientID: "svc-basic", authentication: .clientSecretBasic(secret: Secret("svc-basic-s3cret")), transport: transport)
                let info = try await resourceServer.introspect(tokens.accessToken, hint: "access_token")
                #expect(info.active)
                #expect(info.subject == "alice" && info.clientID == "app" && info.scope == "read")
                let expiry = try #require(info.expiresAt), issued = try #require(info.issuedAt)
                #expect(expiry.timeIntervalSince(issued) == 300)
                try await app.revoke(tokens.accessToken, hint: "access_token")
                #expect(try await resourceServer.introspect(tokens.accessToken).active == false)
                // A public client may not introspect: the provider says so, typed.
                await #expect { try await app.introspect(tokens.accessToken) } throws: { ($0 as? AuthError)?.code == .misconfigured }
            }
        }
    }
}

/// OpenID Connect's code flow against Authlib's provider: its RS256 ID token is validated with
/// the keys it publishes, and a nonce other than the one sent is refused.
@Suite(.enabled(if: InteropPeer.shouldRun, InteropPeer.disabledNote), .timeLimit(.minutes(10)))
struct InteropOpenIDConnectTests {
    @Test func theProvidersIDTokenIsValidatedWithItsPublishedKeys() async throws {
        try await InteropPeer.run("authlib_provider.py", accessSeconds: 300) { peer in
            try await HTTPClientTransport.withTransport { transport in
                let app = OAuth2Client(provider: try InteropOAuth2ProviderTests.provider(peer, transport: transport), clientID: "app", transport: transport)
                let pending = try await app.startAuthorization(redirectURI: InteropOAuth2ProviderTests.redirectURI, scopes: ["openid", "profile"])
                let nonce = try #require(pending.nonce)
                let tokens = try await app.completeAuthorization(pending, redirect: try await InteropOAuth2ProviderTests.consent(pending, transport: transport))
                let idToken = try #require(tokens.idToken?.reveal)
                let claims = try await app.validateIDToken(idToken, nonce: nonce)
                #expect(claims.subject == "alice" && claims.name == "Alice" && claims.nonce == nonce)
                #expect(claims.audience == ["app"])
                #expect(try await peer.counters(transport)["id_tokens"] == 1)
                await #expect { try await app.validateIDToken(idToken, nonce: "another-nonce") } throws: { ($0 as? AuthError)?.code == .authorizationFailed }
                // Another client of the same provider is not its audience.
                let other = OAuth2Client(provider: app.provider, clientID: "svc-basic", transport: transport)
                await #expect { try await other.validateIDToken(idToken, nonce: nonce) } throws: { ($0 as? AuthError)?.message.contains("aud") == true }
            }
        }
    }
}

/// `private_key_jwt` client authentication (RFC 7523) against Authlib's assertion checks.
@Suite(.enabled(if: InteropPeer.shouldRun, InteropPeer.disabledNote), .timeLimit(.minutes(10)))
struct InteropPrivateKeyJWTTests {
    static func register(_ jwk: String, peer: InteropPeer, transport: any Transport) async throws {
        let body = FormURLEncoding.body([("client_id", "svc-jwt"), ("jwk", jwk)])
        _ = try await transport.send(AuthRequest(method: .post, url: peer.url("_clients/key"), headerFields: [.contentType: "application/x-www-form-urlencoded"], body: body))
    }

    static func b64(_ data: Data) -> String {
        Base64URL.encode(data)
    }

    @Test(arguments: ["ES256", "RS256"])
    func aServiceAuthenticatesWithItsKey(algorithm: String) async throws {
        try await InteropPeer.run("authlib_provider.py", accessSeconds: 300) { peer in
            try await HTTPClientTransport.withTransport { transport in
                let signer: PrivateKeyJWT
                if algorithm == "ES256" {
                    let key = ES256PrivateKey()
                    let p = try #require(key.publicKey.parameters)
                    try await Self.register(#"{"kty":"EC","crv":"P-256","x":"\#(p.x)","y":"\#(p.y)","kid":"svc-es"}"#, peer: peer, transport: transport)
                    signer = await PrivateKeyJWT(es256: key, kid: "svc-es")
                } else {
                    let key = try JWTKit.Insecure.RSA.PrivateKey(backing: _RSA.Signing.PrivateKey(keySize: .bits2048))
                    let (n, e) = try key.publicKey.getKeyPrimitives()
                    try await Self.register(#"{"kty":"RSA","n":"\#(Self.b64(n))","e":"\#(Self.b64(e))","kid":"svc-rs"}"#, peer: peer, transport: transport)
                    signer = await PrivateKeyJWT(rs256: key, kid: "svc-rs")
                }
                let provider = try InteropOAuth2ProviderTests.provider(peer, transport: transport)
                let client = OAuth2Client(provider: provider, clientID: "svc-jwt", authentication: .privateKeyJWT(signer), transport: transport)
                let strategy = ClientCredentialsStrategy(client: client, scopes: ["read"], allowedHosts: AllowedHosts(origin: peer.base))
                let container = AuthContainer()
                container.useHTTPClient(transport)
                let service = container.makeClient(for: strategy.account(), strategy: strategy)
                #expect(try await service.json(PeerSubject.self, .get, peer.url("api/me")).sub == "svc-jwt")

                // An assertion is good once: the provider refuses it replayed.
                let tokenURL = peer.url("oauth/token")
                let assertion = try await signer.assertion(clientID: "svc-jwt", audience: tokenURL)
                let form = FormURLEncoding.body([("grant_type", "client_credentials"), ("client_id", "svc-jwt"), ("client_assertion_type", OAuth2ClientAuthentication.jwtBearerAssertionType), ("client_assertion", assertion)])
                let request = try AuthRequest(method: .post, url: tokenURL, headerFields: [.contentType: "application/x-www-form-urlencoded"], body: form)
                #expect(try await transport.send(request).status.code == 200)
                #expect(try await transport.send(request).status.code == 400)  // invalid_client, no Authorization field to answer 401 to
                #expect(try await peer.counters(transport)["replayed_assertions"] == 1)

                // A key the provider does not know: a typed configuration error.
                let stranger = OAuth2Client(provider: provider, clientID: "svc-jwt", authentication: .privateKeyJWT(await PrivateKeyJWT(es256: ES256PrivateKey(), kid: "svc-es")), transport: transport)
                await #expect { try await stranger.tokenEndpoint().requestTokens([("grant_type", "client_credentials")]) } throws: { ($0 as? AuthError)?.code == .misconfigured }
            }
        }
    }
}
