// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
public import Foundation
import JWTKit

/// `client_secret_jwt` client authentication (RFC 7523 §2.2, OpenID Connect Core §9): each
/// request to the provider carries a short-lived JWT MACed with HS256 over the client secret,
/// so that the secret itself never travels.
///
/// The assertion has the claims of ``PrivateKeyJWT``'s: `iss` and `sub` = the client id, `aud` =
/// the endpoint it is sent to (or the ``audience`` given), a random `jti`, `iat`, and `exp`
/// ``lifetime`` later. Use it through ``OAuth2ClientAuthentication/clientSecretJWT(secret:)``.
///
/// ```swift
/// let client = OAuth2Client(provider: oauthProvider, clientID: "billing", authentication: .clientSecretJWT(secret: Secret(clientSecret)), transport: transport)
/// ```
public struct ClientSecretJWT: ClientAssertionSigner, CustomStringConvertible, CustomReflectable {
    private let secret: Secret
    /// A fixed audience (the provider's issuer, say) instead of each endpoint's URL.
    public let audience: URL?
    /// How long an assertion is valid.
    public let lifetime: TimeInterval
    private let now: @Sendable () -> Date

    /// Creates the signer.
    /// - Parameters:
    ///   - secret: The client secret the provider issued; the MAC key.
    ///   - audience: A fixed `aud`; by default the URL of the endpoint each assertion goes to.
    ///   - lifetime: How long an assertion is valid.
    ///   - now: The clock.
    public init(secret: Secret, audience: URL? = nil, lifetime: TimeInterval = 60, now: @escaping @Sendable () -> Date = { Date() }) {
        self.secret = secret
        self.audience = audience
        self.lifetime = lifetime
        self.now = now
    }

    /// A fresh assertion, MACed with HS256.
    public func assertion(clientID: String, audience endpoint: URL) async throws -> String {
        let claims = ClientAssertionClaims(clientID: clientID, audience: audience ?? endpoint, issued: now(), lifetime: lifetime)
        let keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: secret.reveal), digestAlgorithm: .sha256)
        return try await keys.sign(claims)
    }

    /// The algorithm only; never the secret.
    public var description: String { "ClientSecretJWT(HS256)" }
    /// The algorithm only.
    public var customMirror: Mirror { Mirror(self, children: ["algorithm": "HS256"], displayStyle: .struct) }
}
