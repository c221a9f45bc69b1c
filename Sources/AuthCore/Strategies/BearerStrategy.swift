// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import HTTPTypes
import Foundation

/// Bearer tokens renewed with a refresh token through a ``TokenRefresher``.
///
/// ```swift
/// let strategy = BearerStrategy(
///     allowedHosts: AllowedHosts(["api.example.com"]),
///     refresher: OAuth2RefreshTokenRefresher(tokenEndpoint: tokenURL, clientID: "cli", transport: transport)  // AuthOAuth2
/// )
/// ```
public struct BearerStrategy: AuthStrategy {
    /// Where the tokens may be sent.
    public let allowedHosts: AllowedHosts
    /// Whether a `403` without any `WWW-Authenticate` challenge counts as a rejected token too.
    ///
    /// Off by default: a bare 403 usually means "not allowed", which a renewed token does not
    /// change. Turn it on for a resource server that answers every refused token so, as
    /// django-oauth-toolkit's own `ProtectedResourceView` does (an expired or revoked token gets
    /// a bare 403): the token is then renewed once, and a 403 for the renewed one is returned.
    public let treatsBareForbiddenAsRejected: Bool
    private let refresher: any TokenRefresher

    /// Creates the strategy with a refresher type.
    /// - Parameters:
    ///   - allowedHosts: Where the tokens may be sent.
    ///   - refresher: Renews the tokens.
    ///   - treatsBareForbiddenAsRejected: Whether a `403` without a challenge is a rejected
    ///     token (see ``treatsBareForbiddenAsRejected``).
    public init(allowedHosts: AllowedHosts, refresher: any TokenRefresher, treatsBareForbiddenAsRejected: Bool = false) {
        self.allowedHosts = allowedHosts
        self.refresher = refresher
        self.treatsBareForbiddenAsRejected = treatsBareForbiddenAsRejected
    }

    /// Creates the strategy with a refresh closure.
    public init(allowedHosts: AllowedHosts, refresh: @escaping @Sendable (BearerTokenSet) async throws -> BearerTokenSet) {
        self.init(allowedHosts: allowedHosts, refresher: ClosureTokenRefresher(refresh))
    }

    /// A 401, unless its `WWW-Authenticate` challenges are all for other schemes than the
    /// token's, `Bearer` or `DPoP` (a rejected request signature, say), or the only token
    /// challenges refuse a DPoP proof (`use_dpop_nonce`, `invalid_dpop_proof`, RFC 9449 §7.1),
    /// which a new token would not fix; or a 403 whose
    /// challenge says `error="invalid_token"`: RFC 6750 §3.1 asks for 401, but servers answer a
    /// revoked or expired token with 403 too; with ``treatsBareForbiddenAsRejected``, also a 403
    /// without a challenge; or a 403 whose challenge says `insufficient_scope`, which
    /// ``nonRenewableFailure(_:for:)`` then turns into ``ErrorCode/stepUpRequired`` (a renewed
    /// token has the same scope).
    public func isAuthenticationFailure(_ response: AuthResponse, for request: AuthRequest) -> Bool {
        if response.status == .forbidden {
            return response.hasInvalidTokenChallenge || (treatsBareForbiddenAsRejected && response.head.headerFields[.wwwAuthenticate] == nil)
                || StepUpChallenge(response) != nil
        }
        guard response.status == .unauthorized else { return false }
        let challenges = response.head.headerFields[values: .wwwAuthenticate]
        guard !challenges.isEmpty else { return true }
        return challenges.flatMap(StepUpChallenge.tokenChallenges).contains { !Self.proofErrors.contains($0["error"] ?? "") }
    }

    /// The errors of a `DPoP` challenge that refuse the request's proof, not its token.
    private static let proofErrors: Set<String> = ["use_dpop_nonce", "invalid_dpop_proof"]

    /// ``ErrorCode/stepUpRequired``, with the ``StepUpChallenge`` underlying, for a `401`
    /// `insufficient_user_authentication` (RFC 9470) or a `403` `insufficient_scope` (RFC 6750
    /// §3.1): the token is valid but not enough, and a renewed one would be the same.
    public func nonRenewableFailure(_ response: AuthResponse, for request: AuthRequest) -> AuthError? {
        guard let challenge = StepUpChallenge(response) else { return nil }
        let what = challenge.reason == .scope ? "more scope than the token has" : "a stronger or more recent sign-in than the token's"
        return AuthError(code: .stepUpRequired, message: "the resource needs \(what) (\(challenge)); sign in again at that level", status: challenge.status, underlying: challenge)
    }

    /// Renews the token set with the refresher, which also gets sets without a refresh token: a
    /// refresher that renews by running its grant again (client credentials, say) needs none.
    /// AuthOAuth2's `OAuth2RefreshTokenRefresher` throws `.reauthenticationRequired` when there is none.
    /// - Throws: `AuthError` `.notSignedIn` with no tokens; whatever the refresher throws.
    public func renew(_ credential: BearerTokenSet?, context: RenewalContext) async throws -> BearerTokenSet {
        guard let credential else { throw AuthError.notSignedIn(context.account) }
        return try await refresher.refresh(credential)
    }
}

extension AuthResponse {
    /// Whether the answer's `WWW-Authenticate` says `error="invalid_token"` (RFC 6750 §3.1; the
    /// value quoted or not, the name in any case): the token is expired, revoked or malformed,
    /// and a renewed one may pass.
    package var hasInvalidTokenChallenge: Bool {
        guard let challenge = head.headerFields[.wwwAuthenticate] else { return false }
        return challenge.firstMatch(of: /(?i)(^|[\s,])error\s*=\s*"?invalid_token"?(\s|,|$)/) != nil
    }
}

/// Credentials that cannot be renewed by the client (API keys, Basic): a rejection means the
/// user must supply a new one.
public struct StaticCredentialStrategy<Value: Credential>: AuthStrategy {
    /// Where the credential may be sent.
    public let allowedHosts: AllowedHosts
    /// Creates the strategy.
    public init(allowedHosts: AllowedHosts) { self.allowedHosts = allowedHosts }
    /// Always throws: a static credential cannot be renewed.
    public func renew(_ credential: Value?, context: RenewalContext) async throws -> Value {
        guard credential != nil else { throw AuthError.notSignedIn(context.account) }
        throw AuthError.reauthenticationRequired(context.account, reason: "the server rejected the \(Value.kind) credential, which cannot be renewed")
    }
}

/// An API key in a header.
public typealias APIKeyHeaderStrategy = StaticCredentialStrategy<APIKeyHeaderCredential>
/// An API key in the query.
public typealias APIKeyQueryStrategy = StaticCredentialStrategy<APIKeyQueryCredential>
/// HTTP Basic.
public typealias BasicStrategy = StaticCredentialStrategy<BasicCredential>
