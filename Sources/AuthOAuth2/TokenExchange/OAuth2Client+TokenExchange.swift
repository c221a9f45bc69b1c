// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
import Foundation

extension OAuth2Client {
    /// Exchanges a token at the provider's token endpoint (RFC 8693 §2), with this client's
    /// authentication.
    ///
    /// The answer's `issued_token_type` is required (RFC 8693 §2.2.1). An issued access token
    /// must be of a type this client can use (`Bearer`, or `DPoP` with a binding), as every
    /// token this client obtains; any other issued type (a refresh token, a JWT for an
    /// assertion) comes back as it is, its `token_type` being `N_A`.
    ///
    /// ```swift
    /// let downstream = try await app.exchangeToken(TokenExchange(subjectToken: tokens.accessToken, audience: ["orders"]))
    /// ```
    /// - Parameter exchange: The exchange.
    /// - Returns: The issued token and its type.
    /// - Throws: The token endpoint's errors (``OAuth2TokenEndpoint``): `invalid_grant` (the
    ///   subject or actor token is no longer good) as `.reauthenticationRequired`,
    ///   `invalid_target` and other refusals as `.renewalFailed` carrying the ``OAuth2Error``;
    ///   `.decoding` for an answer without `issued_token_type`.
    public func exchangeToken(_ exchange: TokenExchange) async throws -> ExchangedToken {
        let endpoint = try await tokenEndpoint()
        let sent = clock.now()
        let response = try await endpoint.post(exchange.form, to: endpoint.url)
        let issuedAt = TokenResponse.issuedAt(response, sent: sent, received: clock.now())
        guard (200..<300).contains(response.status.code), !OAuth2TokenEndpoint.isErrorAnswer(response) else { throw OAuth2TokenEndpoint.error(from: response) }
        struct Issued: Decodable { let issued_token_type: String }
        guard let issued = try? JSONDecoder().decode(Issued.self, from: response.body) else {
            throw AuthError(code: .decoding, message: "the token exchange answer has no issued_token_type (RFC 8693 §2.2.1)")
        }
        let tokens = try TokenResponse.parse(response.body).tokenSet(issuedAt: issuedAt)
        if issued.issued_token_type == TokenExchange.TokenType.accessToken {
            try OAuth2TokenEndpoint.checkTokenType(tokens.tokenType, expected: endpoint.binding?.boundTokenType)
        }
        return ExchangedToken(tokens: tokens, issuedTokenType: issued.issued_token_type)
    }
}

/// What a token exchange issued (RFC 8693 §2.2.1).
public struct ExchangedToken: Sendable, Equatable, CustomStringConvertible {
    /// The token (`access_token`, whatever its type), its expiry, scope and any refresh token.
    public var tokens: BearerTokenSet
    /// `issued_token_type`.
    public var issuedTokenType: String

    /// Creates the result of an exchange (as read from a token endpoint's answer, or in tests).
    public init(tokens: BearerTokenSet, issuedTokenType: String) {
        self.tokens = tokens
        self.issuedTokenType = issuedTokenType
    }

    /// The type and the tokens' description; never a token.
    public var description: String { "ExchangedToken(\(issuedTokenType), \(tokens))" }
}
