// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
public import Foundation

/// What the provider says about a token (RFC 7662 §2.2). An inactive token (expired, revoked,
/// unknown, or not for this client to know about) has only `active == false`.
public struct TokenIntrospection: Sendable, Equatable, Decodable {
    /// Whether the token is currently active.
    public var active: Bool
    /// `scope`, space-separated.
    public var scope: String?
    /// `client_id`: the client the token was issued to.
    public var clientID: String?
    /// `username`.
    public var username: String?
    /// `sub`.
    public var subject: String?
    /// `token_type`.
    public var tokenType: String?
    /// `iss`.
    public var issuer: String?
    /// `exp`, as a date.
    public var expiresAt: Date?
    /// `iat`, as a date.
    public var issuedAt: Date?

    enum CodingKeys: String, CodingKey {
        case active, scope, username, clientID = "client_id", subject = "sub", tokenType = "token_type", issuer = "iss", exp, iat
    }

    /// Decodes the response; `exp` and `iat` are seconds since 1970.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        active = try c.decode(Bool.self, forKey: .active)
        scope = try c.decodeIfPresent(String.self, forKey: .scope)
        clientID = try c.decodeIfPresent(String.self, forKey: .clientID)
        username = try c.decodeIfPresent(String.self, forKey: .username)
        subject = try c.decodeIfPresent(String.self, forKey: .subject)
        tokenType = try c.decodeIfPresent(String.self, forKey: .tokenType)
        issuer = try c.decodeIfPresent(String.self, forKey: .issuer)
        expiresAt = try Self.date(c, .exp)
        issuedAt = try Self.date(c, .iat)
    }

    private static func date(_ c: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) throws -> Date? {
        guard let seconds = try c.decodeIfPresent(Double.self, forKey: key), seconds.isFinite, abs(seconds) < 1e11 else { return nil }
        return Date(timeIntervalSince1970: seconds)
    }
}

extension OAuth2Client {
    /// Asks the provider about a token (RFC 7662), as a resource server does with a token it
    /// received; the client authenticates as configured.
    ///
    /// ```swift
    /// let info = try await app.introspect(Secret(accessToken))
    /// guard info.active, info.scope?.split(separator: " ").contains("read") == true else { return }
    /// ```
    /// - Parameters:
    ///   - token: The token.
    ///   - hint: `access_token` or `refresh_token`, when known.
    /// - Throws: `AuthError` `.misconfigured` when the provider has no introspection endpoint,
    ///   the endpoint's errors (see ``OAuth2TokenEndpoint``), `.decoding`.
    public func introspect(_ token: Secret, hint: String? = nil) async throws -> TokenIntrospection {
        let metadata = try await provider.metadata()
        guard let endpoint = metadata.introspectionEndpoint else {
            throw AuthError(code: .misconfigured, message: "the provider \(metadata.issuer.absoluteString) has no introspection endpoint")
        }
        var form = [("token", token.reveal)]
        if let hint { form.append(("token_type_hint", hint)) }
        let response = try await tokenEndpoint().post(form, to: endpoint)
        guard (200..<300).contains(response.status.code) else { throw OAuth2TokenEndpoint.error(from: response) }
        do {
            return try JSONDecoder().decode(TokenIntrospection.self, from: response.body)
        } catch {
            throw AuthError(code: .decoding, message: "the introspection response is not the expected JSON: \(DecodingFailure(error))", status: response.status.code)
        }
    }
}
