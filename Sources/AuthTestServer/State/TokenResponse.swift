// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// The token endpoint's success body (RFC 6749 §5.1), JSON keys in snake_case.
public struct TokenResponse: Codable, Sendable, Equatable {
    /// The access token (a JWT).
    public var accessToken: String
    /// Always `Bearer`.
    public var tokenType: String
    /// Seconds until the access token expires.
    public var expiresIn: Int
    /// The refresh token; `nil` for guest sessions.
    public var refreshToken: String?
    /// Granted scope, if any.
    public var scope: String?

    /// Creates a response.
    /// - Parameters:
    ///   - accessToken: The access token.
    ///   - expiresIn: Seconds until expiry.
    ///   - refreshToken: The refresh token, if any.
    ///   - scope: Granted scope, if any.
    public init(accessToken: String, expiresIn: Int, refreshToken: String?, scope: String? = nil) {
        self.accessToken = accessToken
        self.tokenType = "Bearer"
        self.expiresIn = expiresIn
        self.refreshToken = refreshToken
        self.scope = scope
    }

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case tokenType = "token_type"
        case expiresIn = "expires_in"
        case refreshToken = "refresh_token"
        case scope
    }
}

extension TokenResponse: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Shape of the response with every token redacted.
    public var description: String {
        "TokenResponse(token_type: \(tokenType), expires_in: \(expiresIn), refresh_token: \(refreshToken == nil ? "none" : "<redacted>"))"
    }

    /// Same as ``description``.
    public var debugDescription: String { description }

    /// A mirror without the tokens, so `dump` shows no secret.
    public var customMirror: Mirror {
        Mirror(self, children: ["tokenType": tokenType, "expiresIn": expiresIn], displayStyle: .struct)
    }
}
