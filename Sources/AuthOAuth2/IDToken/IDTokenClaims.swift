// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Foundation
public import JWTKit

/// The claims of an OpenID Connect ID token (OpenID Connect Core 1.0 §2) that a client checks
/// and commonly reads. ``OAuth2Client/validateIDToken(_:nonce:clockSkew:)`` returns them once
/// every check passed.
public struct IDTokenClaims: JWTPayload, Equatable {
    /// `iss`.
    public var issuer: String
    /// `sub`: the user at the provider.
    public var subject: String
    /// `aud`: a string or a list in the token, a list here.
    public var audience: [String]
    /// `exp`.
    public var expiresAt: Date
    /// `iat`.
    public var issuedAt: Date
    /// `nbf`: the token is not to be accepted before it (RFC 7519 §4.1.5), when it says so.
    public var notBefore: Date?
    /// `nonce`.
    public var nonce: String?
    /// `azp`: the client the token was issued to, when `aud` names several.
    public var authorizedParty: String?
    /// `auth_time`.
    public var authenticatedAt: Date?
    /// `email`.
    public var email: String?
    /// `name`.
    public var name: String?
    /// `acr`: the authentication context class the sign-in satisfied (OpenID Connect Core §2).
    public var authenticationContextClass: String?

    enum CodingKeys: String, CodingKey {
        case issuer = "iss", subject = "sub", audience = "aud", expiresAt = "exp", issuedAt = "iat", notBefore = "nbf", nonce
        case authorizedParty = "azp", authenticatedAt = "auth_time", email, name, authenticationContextClass = "acr"
    }

    /// Decodes the claims; `aud` may be a string or a list, times are seconds since 1970.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        issuer = try c.decode(String.self, forKey: .issuer)
        subject = try c.decode(String.self, forKey: .subject)
        if let one = try? c.decode(String.self, forKey: .audience) {
            audience = [one]
        } else {
            audience = try c.decode([String].self, forKey: .audience)
        }
        expiresAt = try Self.date(c, .expiresAt)
        issuedAt = try Self.date(c, .issuedAt)
        notBefore = try c.decodeIfPresent(Double.self, forKey: .notBefore).map { seconds in
            guard let date = Self.date(seconds) else {
                throw DecodingError.dataCorruptedError(forKey: .notBefore, in: c, debugDescription: "not a time")
            }
            return date
        }
        nonce = try c.decodeIfPresent(String.self, forKey: .nonce)
        authorizedParty = try c.decodeIfPresent(String.self, forKey: .authorizedParty)
        authenticatedAt = try c.decodeIfPresent(Double.self, forKey: .authenticatedAt).flatMap(Self.date)
        email = try c.decodeIfPresent(String.self, forKey: .email)
        name = try c.decodeIfPresent(String.self, forKey: .name)
        authenticationContextClass = try c.decodeIfPresent(String.self, forKey: .authenticationContextClass)
    }

    /// Encodes the claims as a token carries them.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(issuer, forKey: .issuer)
        try c.encode(subject, forKey: .subject)
        try c.encode(audience, forKey: .audience)
        try c.encode(expiresAt.timeIntervalSince1970, forKey: .expiresAt)
        try c.encode(issuedAt.timeIntervalSince1970, forKey: .issuedAt)
        try c.encodeIfPresent(notBefore?.timeIntervalSince1970, forKey: .notBefore)
        try c.encodeIfPresent(nonce, forKey: .nonce)
        try c.encodeIfPresent(authorizedParty, forKey: .authorizedParty)
        try c.encodeIfPresent(authenticatedAt?.timeIntervalSince1970, forKey: .authenticatedAt)
        try c.encodeIfPresent(email, forKey: .email)
        try c.encodeIfPresent(name, forKey: .name)
        try c.encodeIfPresent(authenticationContextClass, forKey: .authenticationContextClass)
    }

    /// Claims for a token to sign (tests, a test server).
    public init(
        issuer: String, subject: String, audience: [String], expiresAt: Date, issuedAt: Date, nonce: String? = nil, authorizedParty: String? = nil,
        authenticatedAt: Date? = nil, authenticationContextClass: String? = nil, notBefore: Date? = nil
    ) {
        self.notBefore = notBefore
        self.authenticatedAt = authenticatedAt
        self.authenticationContextClass = authenticationContextClass
        self.issuer = issuer
        self.subject = subject
        self.audience = audience
        self.expiresAt = expiresAt
        self.issuedAt = issuedAt
        self.nonce = nonce
        self.authorizedParty = authorizedParty
    }

    /// Nothing here: the checks need the client, the nonce and the clock, and run in
    /// ``OAuth2Client/validateIDToken(_:nonce:clockSkew:)``.
    public func verify(using algorithm: some JWTAlgorithm) async throws {}

    private static func date(_ c: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) throws -> Date {
        let seconds = try c.decode(Double.self, forKey: key)
        guard let date = date(seconds) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "not a time")
        }
        return date
    }

    private static func date(_ seconds: Double) -> Date? {
        seconds.isFinite && abs(seconds) < 1e11 ? Date(timeIntervalSince1970: seconds) : nil
    }
}
