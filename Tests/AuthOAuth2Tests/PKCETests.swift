// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthOAuth2
import Foundation
import Testing

@Suite struct PKCETests {
    /// RFC 7636 Appendix B.
    @Test func theRFC7636ExampleGivesItsChallenge() throws {
        let pkce = try PKCE(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
        #expect(pkce.challenge == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        #expect(pkce.method == "S256")
    }

    @Test func freshVerifiersAreLongUnreservedAndDistinct() throws {
        let verifiers = (0..<50).map { _ in PKCE().verifier.reveal }
        #expect(Set(verifiers).count == 50)
        for verifier in verifiers {
            #expect(verifier.count == 43)
            #expect(try PKCE(verifier: verifier).verifier.reveal == verifier)
        }
    }

    @Test(arguments: ["short", String(repeating: "a", count: 129), String(repeating: "a", count: 42) + "+", String(repeating: "é", count: 43)])
    func aVerifierOutsideRFC7636IsATypedError(verifier: String) {
        #expect { try PKCE(verifier: verifier) } throws: { ($0 as? AuthError)?.code == .invalidRequest }
    }

    @Test func descriptionsDoNotShowTheVerifier() throws {
        let pkce = try PKCE(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
        let pending = PendingAuthorization(url: URL(string: "https://auth.example.com/authorize?x=1")!, state: "s", nonce: nil, pkce: pkce, redirectURI: URL(string: "http://127.0.0.1:5555/callback")!, issuer: URL(string: "https://auth.example.com")!)
        for text in ["\(pkce)", String(reflecting: pkce), "\(pending)", String(reflecting: pending)] {
            #expect(!text.contains("dBjftJeZ4CVP"), "\(text)")
        }
    }
}

@Suite struct DiscoveryAndResponseTests {
    /// RFC 8414 §3.1: the well-known segment goes between the host and the issuer's path.
    @Test(arguments: [
        ("https://example.com", OAuth2Provider.Discovery.authorizationServer, "https://example.com/.well-known/oauth-authorization-server"),
        ("https://example.com/issuer1", .authorizationServer, "https://example.com/.well-known/oauth-authorization-server/issuer1"),
        ("https://example.com/issuer1/", .authorizationServer, "https://example.com/.well-known/oauth-authorization-server/issuer1"),
        ("https://example.com", .openIDConfiguration, "https://example.com/.well-known/openid-configuration"),
        ("https://example.com/tenant", .openIDConfiguration, "https://example.com/tenant/.well-known/openid-configuration"),
    ])
    func theWellKnownURL(issuer: String, discovery: OAuth2Provider.Discovery, expected: String) throws {
        #expect(OAuth2Provider.wellKnownURL(issuer: try #require(URL(string: issuer)), discovery: discovery).absoluteString == expected)
    }

    @Test func anAuthorizationAnswerIsFormDecoded() throws {
        let answer = AuthorizationResponse(redirect: try #require(URL(string: "http://127.0.0.1:5555/callback?error=access_denied&error_description=The+user%20said+no&state=a%2Bb&iss=https%3A%2F%2Fauth.example.com&state=second")))
        #expect(answer.error == OAuth2Error(code: "access_denied", errorDescription: "The user said no"))
        #expect(answer.state == "a+b")  // the first of a repeated parameter
        #expect(answer.issuer == "https://auth.example.com")
        #expect(answer.code == nil)
    }

    @Test func eachClientCredentialsConfigurationHasItsOwnAccount() throws {
        let provider = OAuth2Provider(metadata: AuthorizationServerMetadata(issuer: URL(string: "https://auth.example.com")!, tokenEndpoint: URL(string: "https://auth.example.com/token")!))
        let client = OAuth2Client(provider: provider, clientID: "svc", transport: ClosureTransport { _ in AuthResponse(status: .ok) })
        let hosts = AllowedHosts(["api.example.com"])
        let accounts = [
            ClientCredentialsStrategy(client: client, allowedHosts: hosts),
            ClientCredentialsStrategy(client: client, scopes: ["read"], allowedHosts: hosts),
            ClientCredentialsStrategy(client: client, scopes: ["read", "write"], allowedHosts: hosts),
            ClientCredentialsStrategy(client: client, scopes: ["read"], resources: [URL(string: "https://api.example.com")!], allowedHosts: hosts),
            ClientCredentialsStrategy(client: client, scopes: ["read"], audience: "billing", allowedHosts: hosts),
        ].map { $0.account() }
        #expect(Set(accounts).count == accounts.count)
        #expect(ClientCredentialsStrategy(client: client, scopes: ["write", "read"], allowedHosts: hosts).account() == accounts[2])
    }
}

/// Refusals that need no server: a repeated redirect parameter, plain http metadata, a DPoP
/// request answered with a bearer token.
@Suite struct OAuth2RefusalTests {
    static let metadata = AuthorizationServerMetadata(issuer: URL(string: "https://auth.example.com")!, authorizationEndpoint: URL(string: "https://auth.example.com/authorize")!, tokenEndpoint: URL(string: "https://auth.example.com/token")!)

    @Test func aRepeatedStateIsRefused() async throws {
        let answer = AuthorizationResponse(redirect: URL(string: "http://127.0.0.1:5555/callback?code=c&state=s&state=t")!)
        #expect(answer.repeatedParameters == ["state"])
        #expect(!"\(answer)".contains("code=c") && "\(answer)".contains("<redacted>"))
        let app = OAuth2Client(provider: OAuth2Provider(metadata: Self.metadata), clientID: "app", transport: ClosureTransport { _ in AuthResponse(status: .ok) })
        let pending = PendingAuthorization(url: Self.metadata.authorizationEndpoint!, state: "s", nonce: nil, pkce: PKCE(), redirectURI: URL(string: "http://127.0.0.1:5555/callback")!, issuer: Self.metadata.issuer)
        await #expect { try await app.completeAuthorization(pending, redirect: URL(string: "http://127.0.0.1:5555/callback?code=c&state=s&state=t")!) } throws: { ($0 as? AuthError)?.message.contains("repeats state") == true }
    }

    @Test(arguments: ["http://auth.example.com/token", "http://10.0.0.5/token"])
    func plainHTTPEndpointsOffLoopbackAreRefused(endpoint: String) async throws {
        var metadata = Self.metadata
        metadata.tokenEndpoint = URL(string: endpoint)!
        await #expect { try await OAuth2Provider(metadata: metadata).metadata() } throws: { ($0 as? AuthError)?.code == .misconfigured }
        metadata.tokenEndpoint = URL(string: "http://127.0.0.1:8080/token")!
        #expect(try await OAuth2Provider(metadata: metadata).metadata().tokenEndpoint.port == 8080)
    }

    @Test func aBearerAnswerToADPoPRequestIsRefused() async throws {
        let transport = ClosureTransport { request in
            #expect(request.head.headerFields[DPoP.field] != nil)
            return AuthResponse(status: .ok, headerFields: [.contentType: "application/json"], body: Data(#"{"access_token":"t","token_type":"Bearer","expires_in":60}"#.utf8))
        }
        let dpop = try await DPoP(key: DPoPKey())
        let client = OAuth2Client(provider: OAuth2Provider(metadata: Self.metadata), clientID: "svc", dpop: dpop, transport: transport)
        await #expect { try await client.tokenEndpoint().requestTokens([("grant_type", "client_credentials")]) } throws: { ($0 as? AuthError)?.code == .misconfigured }
    }

    /// RFC 9449 §4.3: the proof's `htu` in lower case, without the default port, query or fragment.
    @Test func theProofNamesTheNormalizedURL() async throws {
        let dpop = try await DPoP(key: DPoPKey())
        let proof = try await dpop.proof(method: "GET", url: URL(string: "HTTPS://API.Example.com:443/v1/me?x=1#f")!, accessToken: "t")
        let claims = try #require(Base64URL.decode(proof.split(separator: ".")[1]))
        let json = try #require(try JSONSerialization.jsonObject(with: claims) as? [String: Any])
        #expect(json["htu"] as? String == "https://api.example.com/v1/me")
        #expect(json["ath"] as? String == "47mKTaMaEn1L3m5DAz9muidMqw636xxw7EFAK_YnPdg")  // BASE64URL(SHA-256("t"))
    }
}
