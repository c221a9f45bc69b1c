// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
import Foundation

extension OAuth2TokenEndpoint {
    /// First tokens from a user name and password: the resource owner password credentials
    /// grant (RFC 6749 §4.3).
    ///
    /// OAuth 2.0 Security Best Current Practice (RFC 9700 §2.4) says not to use this grant; it
    /// is here for first-party servers that still offer it (Authlib, django-oauth-toolkit and
    /// Keycloak do). Prefer the authorization code flow or the device grant.
    ///
    /// ```swift
    /// let endpoint = OAuth2TokenEndpoint(url: tokenURL, clientID: "cli", transport: transport)
    /// try await client.signIn(try await endpoint.passwordGrant(username: "alice", password: password))
    /// ```
    /// - Throws: `AuthError` code `.invalidCredentials` when the server refused the user name or
    ///   password: `invalid_grant` (RFC 6749 §5.2), `invalid_request` whose description names
    ///   the user name or password (Authlib's answer), or a `400`/`401` without an OAuth 2.0
    ///   error body (fastapi-users' answer); otherwise as
    ///   ``OAuth2TokenEndpoint/requestTokens(_:renewing:)``.
    public func passwordGrant(username: String, password: String, scopes: [String] = []) async throws -> BearerTokenSet {
        var parameters = [("grant_type", "password"), ("username", username), ("password", password)]
        if !scopes.isEmpty { parameters.append(("scope", scopes.joined(separator: " "))) }
        do {
            return try await requestTokens(parameters)
        } catch let error as AuthError where Self.refusesResourceOwner(error) {
            let cause = (error.underlying as? OAuth2Error)?.code ?? "\(error.status ?? 0) without an OAuth 2.0 error"
            throw AuthError(code: .invalidCredentials, message: "the token endpoint refused the user name or password (\(cause))", status: error.status, underlying: error.underlying)
        }
    }

    /// Whether a password grant's error says the user name or password is wrong: `invalid_grant`;
    /// `invalid_request` whose description names them (Authlib); or a `400` or `401` without an
    /// OAuth 2.0 error body (fastapi-users' `{"detail": "LOGIN_BAD_CREDENTIALS"}`), since the
    /// request itself is well formed by construction. An answer that asks to try again later
    /// (`Retry-After`) is no such refusal, whatever its body says.
    private static func refusesResourceOwner(_ error: AuthError) -> Bool {
        guard error.retryAfter == nil else { return false }
        guard let refusal = error.underlying as? OAuth2Error else { return error.status == 400 || error.status == 401 }
        if refusal.code == "invalid_grant" { return true }
        guard refusal.code == "invalid_request", let description = refusal.errorDescription?.lowercased() else { return false }
        return description.contains("username") || description.contains("password")
    }
}
