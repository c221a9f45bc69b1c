// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
import Foundation

/// One registered client of an authorization server: its id, how it authenticates, and the
/// provider it belongs to. The grants are methods on it (authorization code with PKCE, client
/// credentials through ``ClientCredentialsStrategy``, refresh, revocation).
///
/// It is also the ``/AuthCore/TokenRefresher`` of a ``/AuthCore/BearerStrategy`` for the tokens it obtained: the
/// refresh_token grant at the provider's token endpoint.
///
/// ```swift
/// let provider = OAuth2Provider(issuer: URL(string: "https://auth.example.com")!, transport: transport)
/// let app = OAuth2Client(provider: provider, clientID: "cli-app", transport: transport)
/// let strategy = BearerStrategy(allowedHosts: AllowedHosts(["api.example.com"]), refresher: app)
/// ```
public struct OAuth2Client: TokenRefresher, CustomStringConvertible {
    /// The provider.
    public let provider: OAuth2Provider
    /// The client id.
    public let clientID: String
    /// How the client authenticates at the token, revocation and introspection endpoints.
    public let authentication: OAuth2ClientAuthentication
    /// The key the tokens this client obtains are bound to (RFC 9449), when they are: every
    /// token request (code exchange, refresh, device poll, revocation) then carries a proof.
    public let dpop: DPoP?
    let transport: any Transport
    let clock: any AuthClock
    /// The bounds of every answer this client reads (token endpoint, key set).
    public let limits: AnswerLimits
    /// The provider's signing keys, shared by the copies of this client.
    let jwks: JWKSCache

    /// Creates a client.
    /// - Parameters:
    ///   - provider: The provider's endpoints (see ``OAuth2Provider``).
    ///   - clientID: The client's identifier at the provider.
    ///   - authentication: How the client authenticates to the provider.
    ///   - dpop: Binds the tokens to this key (for one account: see ``DPoPKeyring``).
    ///   - transport: Sends the requests to the provider: the plain transport, not an
    ///     authenticated client.
    ///   - clock: Gives the issue time of tokens whose response has no `Date` field.
    ///   - limits: The bounds of every answer the client reads; the defaults suit any real server.
    public init(provider: OAuth2Provider, clientID: String, authentication: OAuth2ClientAuthentication = .none, dpop: DPoP? = nil, transport: any Transport, clock: any AuthClock = SystemClock(), limits: AnswerLimits = AnswerLimits()) {
        self.limits = limits
        self.jwks = JWKSCache(limits: limits)
        self.provider = provider
        self.clientID = clientID
        self.authentication = authentication
        self.dpop = dpop
        self.transport = transport
        self.clock = clock
    }

    /// The client id and issuer; never the secret.
    public var description: String { "OAuth2Client(\(clientID) at \(provider.issuer.absoluteString))" }

    /// The provider's token endpoint, as this client calls it.
    /// - Parameter binding: Binds the requests to a key (a ``DPoP`` of the account), when the
    ///   tokens are to be DPoP-bound; by default the client's ``dpop``.
    public func tokenEndpoint(binding: (any TokenRequestBinding)? = nil) async throws -> OAuth2TokenEndpoint {
        OAuth2TokenEndpoint(url: try await provider.metadata().tokenEndpoint, clientID: clientID, authentication: authentication, transport: transport, clock: clock, binding: binding ?? dpop, limits: limits)
    }

    /// Renews with the refresh_token grant (RFC 6749 §6), keeping the refresh token (and its
    /// expiry), the scope and the ID token when the server sends no new one. A refresh token past
    /// its known expiry (``/AuthCore/BearerTokenSet/refreshExpiresAt``) is not sent: the call
    /// could only fail.
    ///
    /// A new ID token in the answer is checked (OpenID Connect Core §12.2), as it becomes the
    /// expected subject of ``userInfo(for:)`` and the `id_token_hint` of a logout. One that
    /// cannot be validated (``validateIDToken(_:nonce:clockSkew:)``: its keys unreachable, its
    /// times off) is not taken, and the sign-in's stays: the tokens the server issued with it
    /// are kept (a rotated refresh token is spent). One that names another issuer, user or
    /// audience than the sign-in's ends the session.
    /// - Throws: `AuthError` `.reauthenticationRequired` without a refresh token, with one that
    ///   expired (a ``/AuthCore/RefreshTokenExpired`` underlying), or when the new ID token names
    ///   another user; the token endpoint's errors.
    public func refresh(_ tokens: BearerTokenSet) async throws -> BearerTokenSet {
        let form = try OAuth2RefreshTokenRefresher.grant(for: tokens, scope: nil, now: clock.now())
        var renewed = try await tokenEndpoint().requestTokens(form, renewing: tokens)
        if let idToken = renewed.idToken, idToken != tokens.idToken,
           try await !acceptsRefreshedIDToken(idToken.reveal, signedIn: tokens.idToken?.reveal) {
            renewed.idToken = tokens.idToken
        }
        return renewed
    }
}
