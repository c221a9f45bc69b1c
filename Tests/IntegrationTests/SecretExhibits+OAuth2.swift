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

extension SecretExhibit {
    /// AuthOAuth2: a confidential client and its strategy, a pending authorization and its
    /// PKCE verifier, the shared token endpoint; a client registration and the client it makes,
    /// a `client_secret_jwt` signer, a token exchange, its result and its strategy.
    static func oauth2() async throws -> [SecretExhibit] {
        let m = marker
        let metadata = AuthorizationServerMetadata(issuer: URL(string: "https://auth.example.com")!, authorizationEndpoint: URL(string: "https://auth.example.com/authorize")!, tokenEndpoint: URL(string: "https://auth.example.com/token")!)
        let transport = ClosureTransport { _ in AuthResponse(status: .ok) }
        let client = OAuth2Client(provider: OAuth2Provider(metadata: metadata), clientID: "svc", authentication: .clientSecretPost(secret: Secret("\(m)-client-secret")), transport: transport)
        let verifier = "\(m)-verifier-0123456789abcdefghijklmnopqrstuvwxyz"
        let pkce = try PKCE(verifier: verifier)
        let pending = PendingAuthorization(url: metadata.authorizationEndpoint!, state: "state", nonce: nil, pkce: pkce, redirectURI: URL(string: "http://127.0.0.1:5555/callback")!, issuer: metadata.issuer)
        let key = DPoPKey()
        let registration = ClientRegistration(
            issuer: metadata.issuer, clientID: "cli", clientSecret: Secret("\(m)-registered-secret"), registrationAccessToken: Secret("\(m)-registration-access-token"),
            registrationClientURI: URL(string: "https://auth.example.com/register/cli")!, metadata: ClientMetadata(clientName: "cli", tokenEndpointAuthMethod: "client_secret_post"))
        let exchange = TokenExchange(subjectToken: Secret("\(m)-subject-token"), actorToken: Secret("\(m)-actor-token"), audience: ["orders"])
        let stored = try JSONSerialization.jsonObject(with: JSONEncoder().encode(key)) as? [String: Any]
        let keyBytes = try #require((stored?["raw"] as? String).flatMap { Data(base64Encoded: $0) })
        return [
            SecretExhibit(key, [m], raw: [Array(keyBytes)]),
            SecretExhibit(try await DPoP(key: key), [m], raw: [Array(keyBytes)]),
            SecretExhibit(client, [m]),
            SecretExhibit(DeviceAuthorization(deviceCode: Secret("\(m)-device-code"), userCode: "ABCD-EFGH", verificationURI: URL(string: "https://auth.example.com/device")!, verificationURIComplete: nil, expiresAt: Date(timeIntervalSince1970: 0), interval: .seconds(5)), [m]),
            SecretExhibit(AuthorizationResponse(redirect: URL(string: "http://127.0.0.1:5555/callback?code=\(m)-code&state=s")!), [m]),
            SecretExhibit(ClientCredentialsStrategy(client: client, scopes: ["read"], allowedHosts: AllowedHosts(["api.example.com"])), [m]),
            SecretExhibit(pkce, [m]),
            SecretExhibit(pending, [m]),
            SecretExhibit(OAuth2TokenEndpoint(url: metadata.tokenEndpoint, clientID: "svc", authentication: .clientSecretBasic(secret: Secret("\(m)-basic")), transport: transport), [m]),
            // A logout's URL carries the ID token as id_token_hint.
            SecretExhibit(PendingLogout(url: URL(string: "https://auth.example.com/logout?id_token_hint=\(m)-id-token&state=s")!, state: "s", postLogoutRedirectURI: URL(string: "http://127.0.0.1:5556/logged-out")!, issuer: metadata.issuer), [m]),
            SecretExhibit(BearerTokenSet(accessToken: "\(m)-access", refreshToken: "\(m)-refresh", refreshExpiresAt: Date(timeIntervalSince1970: 0)), [m]),
            SecretExhibit(registration, [m]),
            SecretExhibit(try OAuth2Client(provider: client.provider, registration: registration, transport: transport), [m]),
            SecretExhibit(ClientSecretJWT(secret: Secret("\(m)-hs256-secret")), [m]),
            SecretExhibit(OAuth2TokenEndpoint(url: metadata.tokenEndpoint, clientID: "svc", authentication: .clientSecretJWT(secret: Secret("\(m)-jwt-secret")), transport: transport), [m]),
            SecretExhibit(exchange, [m]),
            SecretExhibit(ExchangedToken(tokens: BearerTokenSet(accessToken: "\(m)-exchanged", refreshToken: "\(m)-exchanged-refresh"), issuedTokenType: TokenExchange.TokenType.accessToken), [m]),
            SecretExhibit(TokenExchangeStrategy(client: client, subjectAccount: AccountKey(namespace: "app", account: "alice"), subjectToken: { BearerTokenSet(accessToken: "\(m)-subject") }, allowedHosts: AllowedHosts(["api.example.com"])), [m]),
        ]
    }
}
