// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
public import Foundation

/// One token exchange (RFC 8693 §2.1): a token that says who the request is for (the subject),
/// optionally one that says who acts (the actor), exchanged at the token endpoint for a token
/// meant for another service.
///
/// Without ``actorToken`` it is impersonation: the issued token stands for the subject alone.
/// With it, delegation: the issued token says that the actor acts for the subject (the `act`
/// claim, RFC 8693 §4.1, when the provider issues JWTs).
///
/// ```swift
/// let exchange = TokenExchange(subjectToken: tokens.accessToken, audience: ["orders"], scopes: ["orders.read"])
/// let issued = try await app.exchangeToken(exchange)
/// ```
public struct TokenExchange: Sendable, CustomStringConvertible {
    /// The token types of RFC 8693 §3.
    public enum TokenType {
        /// `urn:ietf:params:oauth:token-type:access_token`.
        public static let accessToken = "urn:ietf:params:oauth:token-type:access_token"
        /// `urn:ietf:params:oauth:token-type:refresh_token`.
        public static let refreshToken = "urn:ietf:params:oauth:token-type:refresh_token"
        /// `urn:ietf:params:oauth:token-type:id_token`.
        public static let idToken = "urn:ietf:params:oauth:token-type:id_token"
        /// `urn:ietf:params:oauth:token-type:jwt`.
        public static let jwt = "urn:ietf:params:oauth:token-type:jwt"
    }

    /// The `grant_type` of a token exchange.
    public static let grantType = "urn:ietf:params:oauth:grant-type:token-exchange"

    /// `subject_token`.
    public var subjectToken: Secret
    /// `subject_token_type`.
    public var subjectTokenType: String
    /// `actor_token`, for delegation.
    public var actorToken: Secret?
    /// `actor_token_type`, sent with ``actorToken``.
    public var actorTokenType: String
    /// `requested_token_type`; the provider's default when nil.
    public var requestedTokenType: String?
    /// `audience` values: the logical names of the services the token is for.
    public var audience: [String]
    /// RFC 8707 `resource` indicators: the URLs of the services the token is for.
    public var resources: [URL]
    /// `scope`.
    public var scopes: [String]

    /// Describes an exchange.
    /// - Parameters:
    ///   - subjectToken: The token of the party the request is for.
    ///   - subjectTokenType: Its type; an access token by default.
    ///   - actorToken: The token of the acting party, for delegation.
    ///   - actorTokenType: Its type; an access token by default.
    ///   - requestedTokenType: The type asked for; the provider's default when nil.
    ///   - audience: The target services' names.
    ///   - resources: The target services' URLs.
    ///   - scopes: The scopes asked for.
    public init(subjectToken: Secret, subjectTokenType: String = TokenType.accessToken, actorToken: Secret? = nil, actorTokenType: String = TokenType.accessToken, requestedTokenType: String? = nil, audience: [String] = [], resources: [URL] = [], scopes: [String] = []) {
        self.subjectToken = subjectToken
        self.subjectTokenType = subjectTokenType
        self.actorToken = actorToken
        self.actorTokenType = actorTokenType
        self.requestedTokenType = requestedTokenType
        self.audience = audience
        self.resources = resources
        self.scopes = scopes
    }

    /// The form parameters of the token request.
    var form: [(String, String)] {
        var form = [("grant_type", Self.grantType), ("subject_token", subjectToken.reveal), ("subject_token_type", subjectTokenType)]
        if let actorToken { form += [("actor_token", actorToken.reveal), ("actor_token_type", actorTokenType)] }
        if let requestedTokenType { form.append(("requested_token_type", requestedTokenType)) }
        form += audience.map { ("audience", $0) }
        form += resources.map { ("resource", $0.absoluteString) }
        if !scopes.isEmpty { form.append(("scope", scopes.joined(separator: " "))) }
        return form
    }

    /// The types, audience, resources and scopes; never a token.
    public var description: String {
        "TokenExchange(subject: \(subjectTokenType), actor: \(actorToken == nil ? "none" : actorTokenType), audience: \(audience), resources: \(resources.map(\.absoluteString)), scopes: \(scopes))"
    }
}
