// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
public import Foundation
public import JWTKit

/// `private_key_jwt` client authentication (RFC 7523 §2.2, OpenID Connect Core §9): instead of
/// a shared secret, each request to the provider carries a short-lived JWT signed with the
/// client's private key (ES256 or RS256); the provider holds only the public key.
///
/// Each assertion has `iss` and `sub` = the client id, `aud` = the endpoint it is sent to
/// (or the ``audience`` given), a random `jti` (so a captured one cannot be replayed), `iat`,
/// and `exp` one minute later.
///
/// ```swift
/// let key = ES256PrivateKey()
/// let signer = await PrivateKeyJWT(es256: key, kid: "billing-2026")
/// let client = OAuth2Client(provider: oauthProvider, clientID: "billing", authentication: .privateKeyJWT(signer), transport: transport)
/// ```
///
/// It also signs request objects (RFC 9101) with the same key: ``requestObject(clientID:audience:parameters:)``.
public struct PrivateKeyJWT: ClientAssertionSigner, RequestObjectSigner, CustomStringConvertible, CustomReflectable {
    private let keys: JWTKeyCollection
    /// The key id the provider knows the public key by.
    public let kid: String
    /// The algorithm: `ES256` or `RS256`.
    public let algorithm: String
    /// A fixed audience (the provider's issuer, say) instead of each endpoint's URL.
    public let audience: URL?
    /// How long an assertion is valid.
    public let lifetime: TimeInterval
    private let now: @Sendable () -> Date

    /// Signs with a P-256 key (ES256).
    public init(es256 key: ES256PrivateKey, kid: String, audience: URL? = nil, lifetime: TimeInterval = 60, now: @escaping @Sendable () -> Date = { Date() }) async {
        let keys = JWTKeyCollection()
        await keys.add(ecdsa: key, kid: JWKIdentifier(string: kid))
        self.init(keys: keys, kid: kid, algorithm: "ES256", audience: audience, lifetime: lifetime, now: now)
    }

    /// Signs with an RSA key (RS256, 2048 bits or more).
    public init(rs256 key: Insecure.RSA.PrivateKey, kid: String, audience: URL? = nil, lifetime: TimeInterval = 60, now: @escaping @Sendable () -> Date = { Date() }) async {
        let keys = JWTKeyCollection()
        await keys.add(rsa: key, digestAlgorithm: .sha256, kid: JWKIdentifier(string: kid))
        self.init(keys: keys, kid: kid, algorithm: "RS256", audience: audience, lifetime: lifetime, now: now)
    }

    private init(keys: JWTKeyCollection, kid: String, algorithm: String, audience: URL?, lifetime: TimeInterval, now: @escaping @Sendable () -> Date) {
        self.keys = keys
        self.kid = kid
        self.algorithm = algorithm
        self.audience = audience
        self.lifetime = lifetime
        self.now = now
    }

    /// A fresh assertion.
    public func assertion(clientID: String, audience endpoint: URL) async throws -> String {
        let claims = ClientAssertionClaims(clientID: clientID, audience: audience ?? endpoint, issued: now(), lifetime: lifetime)
        return try await keys.sign(claims, kid: JWKIdentifier(string: kid))
    }

    /// A request object (RFC 9101 §4): `parameters` as claims (`max_age` as a number), with
    /// `iss` the client id, `aud` the provider's issuer, `iat`, `nbf`, `exp` (``lifetime`` later)
    /// and a random `jti`, its header typed `oauth-authz-req+jwt` (RFC 9101 §10.8). It is valid
    /// for ``requestObjectLifetime`` (longer than an assertion: in the browser's URL it is read
    /// when the user opens the page).
    public func requestObject(clientID: String, audience: URL, parameters: [(String, String)]) async throws -> String {
        let issued = Int(now().timeIntervalSince1970)
        var claims = RequestObjectClaims()
        for (name, value) in parameters { claims.set(name, value) }
        claims.set("iss", clientID)
        claims.set("aud", audience.absoluteString)
        claims.set("jti", PKCE.randomToken(24))
        claims.numbers["iat"] = issued
        claims.numbers["nbf"] = issued
        claims.numbers["exp"] = issued + Int(Self.requestObjectLifetime)
        var header = JWTHeader()
        header.typ = "oauth-authz-req+jwt"
        return try await keys.sign(claims, kid: JWKIdentifier(string: kid), header: header)
    }

    /// How long a request object is valid: five minutes.
    public static let requestObjectLifetime: TimeInterval = 300

    /// The key id and algorithm; never the key.
    public var description: String { "PrivateKeyJWT(\(algorithm), kid \(kid))" }
    /// The key id and algorithm only.
    public var customMirror: Mirror { Mirror(self, children: ["kid": kid, "algorithm": algorithm], displayStyle: .struct) }
}

/// The claims of a request object: strings, and the parameters that are numbers in JSON.
struct RequestObjectClaims: JWTPayload {
    var strings: [String: String] = [:]
    var numbers: [String: Int] = [:]

    init() {}

    /// Sets a parameter; `max_age` as a number (OpenID Connect Core §3.1.2.1) when it is one.
    mutating func set(_ name: String, _ value: String) {
        if name == "max_age", let seconds = Int(value) {
            numbers[name] = seconds
        } else {
            strings[name] = value
        }
    }

    private struct Key: CodingKey {
        let stringValue: String
        init(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        for key in c.allKeys {
            if let number = try? c.decode(Int.self, forKey: key) { numbers[key.stringValue] = number } else { strings[key.stringValue] = try c.decode(String.self, forKey: key) }
        }
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        for (name, value) in strings.sorted(by: { $0.key < $1.key }) { try c.encode(value, forKey: Key(stringValue: name)) }
        for (name, value) in numbers.sorted(by: { $0.key < $1.key }) { try c.encode(value, forKey: Key(stringValue: name)) }
    }

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// The claims of an RFC 7523 client assertion.
struct ClientAssertionClaims: JWTPayload {
    let iss: String
    let sub: String
    let aud: String
    let jti: String
    let iat: Int
    let exp: Int

    /// The claims of one fresh assertion (RFC 7523 §3): the client as issuer and subject, the
    /// endpoint as audience, a random `jti`, valid for `lifetime` from `issued`.
    init(clientID: String, audience: URL, issued: Date, lifetime: TimeInterval) {
        iss = clientID
        sub = clientID
        aud = audience.absoluteString
        jti = PKCE.randomToken(24)
        iat = Int(issued.timeIntervalSince1970)
        exp = Int(issued.addingTimeInterval(lifetime).timeIntervalSince1970)
    }

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
