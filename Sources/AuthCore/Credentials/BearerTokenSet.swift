// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Foundation
import HTTPTypes

/// An OAuth 2.0 style token set: access token, optional refresh token, expiry and scope.
///
/// ```swift
/// let tokens = BearerTokenSet(accessToken: "eyJ…", refreshToken: "r1", expiresAt: now + 3600)
/// ```
/// When the token response gave no expiry, ``expiresAt`` falls back to the access token's JWT
/// `exp` claim, if the access token is a JWT.
public struct BearerTokenSet: Credential {
    /// `bearer`.
    public static let kind = "bearer"
    /// The access token.
    public var accessToken: Secret { didSet { authorization = Self.authorization(tokenType, accessToken) } }
    /// The refresh token, if the server issued one.
    public var refreshToken: Secret?
    /// When the refresh token expires, when the server said (`refresh_expires_in`, or
    /// `refresh_token_expires_in`): past it, a renewal cannot succeed and is not tried.
    public var refreshExpiresAt: Date?
    /// When the access token expires: the token response's expiry, or else the access token's
    /// JWT `exp` claim (read once, when the set is created).
    public var expiresAt: Date?
    /// Granted scopes, space separated.
    public var scope: String?
    /// The token type; `Bearer` unless the server said otherwise.
    public var tokenType: String { didSet { authorization = Self.authorization(tokenType, accessToken) } }
    /// The OpenID Connect id token, if any.
    public var idToken: Secret?
    /// `Authorization: <type> <token>`, built when the token or its type is set: every request
    /// carries it, and a JWT is long enough that building and validating it each time shows.
    private var authorization: CredentialField

    /// Creates a token set.
    public init(
        accessToken: String, refreshToken: String? = nil, expiresAt: Date? = nil,
        scope: String? = nil, tokenType: String = "Bearer", idToken: String? = nil, refreshExpiresAt: Date? = nil
    ) {
        self.refreshExpiresAt = refreshExpiresAt
        self.accessToken = Secret(accessToken)
        self.refreshToken = refreshToken.map(Secret.init)
        self.expiresAt = expiresAt ?? (try? JWT.decode(accessToken))?.expiresAt
        self.scope = scope
        self.tokenType = tokenType
        self.idToken = idToken.map(Secret.init)
        authorization = Self.authorization(tokenType, self.accessToken)
    }

    private static func authorization(_ tokenType: String, _ token: Secret) -> CredentialField {
        let type = tokenType == "Bearer" || tokenType.lowercased() == "bearer" ? "Bearer" : tokenType
        return CredentialField(.authorization, value: type + " " + token.reveal)
    }

    /// ``refreshExpiresAt``, when the set has a refresh token.
    public var renewableUntil: Date? { refreshToken == nil ? nil : refreshExpiresAt }

    /// Sets `Authorization: Bearer <token>`.
    public func authorize(_ request: inout AuthRequest) {
        authorization.set(on: &request)
    }

    /// Whether two sets hold the same tokens, expiry, scope and type.
    public static func == (lhs: BearerTokenSet, rhs: BearerTokenSet) -> Bool {
        lhs.accessToken == rhs.accessToken && lhs.refreshToken == rhs.refreshToken && lhs.expiresAt == rhs.expiresAt
            && lhs.scope == rhs.scope && lhs.tokenType == rhs.tokenType && lhs.idToken == rhs.idToken
            && lhs.refreshExpiresAt == rhs.refreshExpiresAt
    }

    private enum CodingKeys: String, CodingKey {
        case accessToken, refreshToken, expiresAt, scope, tokenType, idToken, refreshExpiresAt
    }

    /// Decodes the stored form (the seven properties; nothing derived is stored). A record written
    /// before ``refreshExpiresAt`` existed reads it as unknown.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        accessToken = try container.decode(Secret.self, forKey: .accessToken)
        refreshToken = try container.decodeIfPresent(Secret.self, forKey: .refreshToken)
        expiresAt = try container.decodeIfPresent(Date.self, forKey: .expiresAt)
        scope = try container.decodeIfPresent(String.self, forKey: .scope)
        tokenType = try container.decode(String.self, forKey: .tokenType)
        idToken = try container.decodeIfPresent(Secret.self, forKey: .idToken)
        refreshExpiresAt = try container.decodeIfPresent(Date.self, forKey: .refreshExpiresAt)
        authorization = Self.authorization(tokenType, accessToken)
    }

    /// Encodes the properties as earlier versions did, and ``refreshExpiresAt`` only when known
    /// (so a record without it reads the same in an earlier version).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(accessToken, forKey: .accessToken)
        try container.encodeIfPresent(refreshToken, forKey: .refreshToken)
        try container.encodeIfPresent(expiresAt, forKey: .expiresAt)
        try container.encodeIfPresent(scope, forKey: .scope)
        try container.encode(tokenType, forKey: .tokenType)
        try container.encodeIfPresent(idToken, forKey: .idToken)
        try container.encodeIfPresent(refreshExpiresAt, forKey: .refreshExpiresAt)
    }

    /// Type, expiry and scope; never a token.
    public var description: String {
        "BearerTokenSet(tokenType: \(tokenType), expiresAt: \(expiresAt.map { "\($0)" } ?? "none"), scope: \(scope ?? "none"), refreshToken: \(refreshToken == nil ? "none" : "<redacted>")\(refreshExpiresAt.map { ", refreshExpiresAt: \($0)" } ?? ""))"
    }
}
