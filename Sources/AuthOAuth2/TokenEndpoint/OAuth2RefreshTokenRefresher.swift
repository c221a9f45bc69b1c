// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
public import Foundation
import HTTPTypes

/// Renews tokens with the OAuth 2.0 `refresh_token` grant (RFC 6749 §6).
///
/// Posts `grant_type=refresh_token` form-encoded to the token endpoint, authenticating the
/// client as configured. Keeps the old refresh token when the response omits one. An
/// `invalid_grant` error means the refresh token is dead: it throws
/// `AuthError.reauthenticationRequired`. `invalid_client`, `unauthorized_client`,
/// `unsupported_grant_type` and `invalid_scope` mean the client is configured wrongly: they throw
/// `AuthError.misconfigured`, which no retry fixes. Other errors are `AuthError.renewalFailed`
/// carrying the ``OAuth2Error``.
public struct OAuth2RefreshTokenRefresher: TokenRefresher {
    /// How the client authenticates to the token endpoint (RFC 6749 §2.3).
    public typealias ClientAuthentication = OAuth2ClientAuthentication

    /// The token endpoint.
    public var tokenEndpoint: URL { endpoint.url }
    /// The client id.
    public var clientID: String { endpoint.clientID }
    /// How the client authenticates.
    public var authentication: ClientAuthentication { endpoint.authentication }
    /// Scopes to ask for, if narrower than the original grant.
    public let scope: String?
    private let endpoint: OAuth2TokenEndpoint
    private let clock: any AuthClock

    /// Creates a refresher.
    /// - Parameters:
    ///   - tokenEndpoint: The authorization server's token endpoint.
    ///   - clientID: The client's identifier, sent with each refresh.
    ///   - authentication: How the client authenticates to the endpoint.
    ///   - scope: Scopes to ask for, if narrower than the original grant.
    ///   - transport: Sends the token request. Pass the plain transport, not an authenticated
    ///     client, so that the refresh does not go through the authentication middleware.
    ///   - clock: Gives the issue time when a response has no `Date` field.
    public init(tokenEndpoint: URL, clientID: String, authentication: ClientAuthentication = .none, scope: String? = nil, transport: any Transport, clock: any AuthClock = SystemClock()) {
        self.endpoint = OAuth2TokenEndpoint(url: tokenEndpoint, clientID: clientID, authentication: authentication, transport: transport, clock: clock)
        self.scope = scope
        self.clock = clock
    }

    /// Calls the token endpoint, unless the refresh token has expired by what the server said
    /// of its lifetime (`BearerTokenSet/refreshExpiresAt`): that call could not succeed.
    /// - Throws: `AuthError` `.reauthenticationRequired` with no refresh token, or one that
    ///   expired (a `RefreshTokenExpired` underlying); the endpoint's errors.
    public func refresh(_ tokens: BearerTokenSet) async throws -> BearerTokenSet {
        let form = try Self.grant(for: tokens, scope: scope, now: clock.now())
        return try await endpoint.requestTokens(form, renewing: tokens)
    }

    /// The form of the `refresh_token` grant for `tokens`, checked before anything is sent (and
    /// before the token endpoint is looked up): the one place both this refresher and
    /// ``OAuth2Client/refresh(_:)`` build it.
    /// - Throws: `AuthError` `.reauthenticationRequired` with no refresh token, or one whose known
    ///   expiry is not after `now` (a `RefreshTokenExpired` underlying).
    static func grant(for tokens: BearerTokenSet, scope: String?, now: Date) throws -> [(String, String)] {
        guard let refreshToken = tokens.refreshToken else {
            throw AuthError.reauthenticationRequired(nil, reason: "there is no refresh token")
        }
        try RefreshTokenExpired.check(tokens, now: now)
        var form = [("grant_type", "refresh_token"), ("refresh_token", refreshToken.reveal)]
        if let scope { form.append(("scope", scope)) }
        return form
    }
}
