// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
public import Foundation

extension OAuth2Client {
    /// Starts the authorization code flow with PKCE (RFC 6749 §4.1, RFC 7636 S256): the URL to
    /// open in the user's browser, and what ``completeAuthorization(_:redirect:)`` needs.
    ///
    /// The request can be pushed to the provider first (RFC 9126, `pushed`; always when its
    /// metadata says `require_pushed_authorization_requests`), so that the browser carries only
    /// a `request_uri`; and it can be a request object signed with the client's key (RFC 9101,
    /// `signed`; the client authenticates with ``PrivateKeyJWT``), so that nothing on the way
    /// changes it. Both together are what FAPI 2.0 asks for. With either, the browser's URL also
    /// carries `client_id`, `response_type`, `redirect_uri` and `scope` in the clear (RFC 9101
    /// §5 allows it; OpenID Connect Core §6 and some providers ask for it); `state`, `nonce`
    /// and the PKCE challenge travel only inside.
    ///
    /// ```swift
    /// let pending = try await app.startAuthorization(redirectURI: URL(string: "http://127.0.0.1:8765/callback")!, scopes: ["openid", "profile"])
    /// print("Open \(pending.url)")
    /// let tokens = try await app.completeAuthorization(pending, redirect: callbackURL)
    /// ```
    /// - Parameters:
    ///   - redirectURI: Where the provider sends the browser back.
    ///   - scopes: The scopes to ask for.
    ///   - nonce: Whether to send an OpenID Connect `nonce` (by default, when `openid` is asked for).
    ///   - parameters: Further authorization request parameters (`prompt`, `login_hint`,
    ///     `resource`, `acr_values`...); they cannot replace the ones this method sets.
    ///   - pushed: Whether to push the request (RFC 9126) even when the provider does not
    ///     require it.
    ///   - signed: Whether to send the request as a signed request object (RFC 9101).
    /// - Throws: `AuthError` `.misconfigured` when the provider has no authorization endpoint,
    ///   no pushed authorization request endpoint for a pushed request, or the client no key to
    ///   sign with for a signed one; what `pushAuthorizationRequest(_:metadata:)` throws; or
    ///   what fetching its metadata throws.
    public func startAuthorization(
        redirectURI: URL, scopes: [String], nonce: Bool? = nil, parameters: [(String, String)] = [], pushed: Bool = false, signed: Bool = false
    ) async throws -> PendingAuthorization {
        let metadata = try await provider.metadata()
        guard let endpoint = metadata.authorizationEndpoint else {
            throw AuthError(code: .misconfigured, message: "the provider \(metadata.issuer.absoluteString) has no authorization endpoint")
        }
        let pkce = PKCE()
        let state = PKCE.randomToken()
        let nonceValue = (nonce ?? scopes.contains("openid")) ? PKCE.randomToken() : nil
        var items = [
            ("response_type", "code"), ("client_id", clientID), ("redirect_uri", redirectURI.absoluteString),
            ("state", state), ("code_challenge", pkce.challenge), ("code_challenge_method", pkce.method),
        ]
        if !scopes.isEmpty { items.append(("scope", scopes.joined(separator: " "))) }
        if let nonceValue { items.append(("nonce", nonceValue)) }
        let reserved = Set(items.map(\.0)).union(["request", "request_uri"])
        items += parameters.filter { !reserved.contains($0.0) }
        let inTheClear = items.filter { Self.clearParameters.contains($0.0) }
        var request = items
        if signed {
            guard case .privateKeyJWT(let key) = authentication, let signer = key as? any RequestObjectSigner else {
                throw AuthError(code: .misconfigured, message: "a signed authorization request (RFC 9101) needs the client to authenticate with a key that signs request objects (PrivateKeyJWT)")
            }
            request = inTheClear + [("request", try await signer.requestObject(clientID: clientID, audience: metadata.issuer, parameters: items))]
        }
        if pushed || metadata.requirePushedAuthorizationRequests == true {
            let pushedRequest = try await pushAuthorizationRequest(request, metadata: metadata)
            request = inTheClear + [("request_uri", pushedRequest.requestURI)]
        }
        var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false)
        let existing = components?.percentEncodedQuery.map { $0 + "&" } ?? ""
        components?.percentEncodedQuery = existing + FormURLEncoding.query(request)
        guard let url = components?.url else {
            throw AuthError(code: .misconfigured, message: "the provider's authorization endpoint is not a URL a request can be added to")
        }
        return PendingAuthorization(url: url, state: state, nonce: nonceValue, pkce: pkce, redirectURI: redirectURI, issuer: metadata.issuer, openID: scopes.contains("openid"))
    }

    /// The parameters a pushed or signed request also carries in the browser's URL.
    static let clearParameters: Set<String> = ["client_id", "response_type", "redirect_uri", "scope"]

    /// Completes an authorization from the URL the browser was sent back to, and exchanges its
    /// code for tokens.
    ///
    /// Checks, in this order: the redirect is for the pending authorization's redirect URI; the
    /// issuer (RFC 9207: `iss` must name the provider when present, and must be present when
    /// the provider announces it); `state`; an error answer; a code. Then the code and the
    /// PKCE verifier go to the token endpoint, and an ID token that comes back for an OpenID
    /// Connect authorization is validated (``validateIDToken(_:nonce:clockSkew:)``) with its
    /// nonce.
    /// - Throws: `AuthError` `.authorizationFailed` for a refused or forged answer, and for a
    ///   code the token endpoint refuses (an ``OAuth2Error`` underlying when the provider sent
    ///   one), or the token endpoint's other errors (see ``OAuth2TokenEndpoint``).
    public func completeAuthorization(_ pending: PendingAuthorization, redirect: URL) async throws -> BearerTokenSet {
        guard Self.sameEndpoint(redirect, pending.redirectURI) else {
            throw Self.failure("the redirect is not to this authorization's redirect URI")
        }
        let answer = AuthorizationResponse(redirect: redirect)
        guard answer.repeatedParameters.isEmpty else {
            throw Self.failure("the answer repeats \(answer.repeatedParameters.joined(separator: ", ")) (RFC 6749 §3.1)")
        }
        let metadata = try await provider.metadata()
        if let issuer = answer.issuer {
            guard issuer == pending.issuer.absoluteString else {
                throw Self.failure("the answer names the issuer \(issuer), not \(pending.issuer.absoluteString): it may come from another provider (RFC 9207)")
            }
        } else if metadata.authorizationResponseIssParameterSupported == true {
            throw Self.failure("the answer has no iss parameter although the provider announces one (RFC 9207)")
        }
        guard answer.state == pending.state else {
            throw Self.failure("the answer's state is not this authorization's: it was not started here, or was answered twice")
        }
        if let error = answer.error {
            throw AuthError(code: .authorizationFailed, message: "the provider refused the authorization (\(error.code))", underlying: error)
        }
        guard let code = answer.code, !code.isEmpty else {
            throw Self.failure("the answer has neither a code nor an error")
        }
        let form = [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", pending.redirectURI.absoluteString), ("code_verifier", pending.pkce.verifier.reveal)]
        let tokens: BearerTokenSet
        do {
            tokens = try await tokenEndpoint().requestTokens(form)
        } catch let error as AuthError where error.retryAfter == nil && (error.underlying as? OAuth2Error)?.code == "invalid_grant" {
            throw AuthError(code: .authorizationFailed, message: "the provider refused the code (invalid_grant): it was used already or expired, or the PKCE verifier does not match; start a new authorization", underlying: error.underlying)
        }
        // An OpenID Connect sign-in: the ID token must be there and hold before the tokens are used.
        if pending.openID {
            guard let idToken = tokens.idToken else {
                throw Self.failure("the provider sent no ID token for an OpenID Connect authorization")
            }
            _ = try await validateIDToken(idToken.reveal, nonce: pending.nonce)
        }
        return tokens
    }

    private static func failure(_ message: String) -> AuthError {
        AuthError(code: .authorizationFailed, message: message)
    }

    /// Whether `redirect` goes to `expected`: scheme, host, port and path.
    static func sameEndpoint(_ redirect: URL, _ expected: URL) -> Bool {
        redirect.scheme?.lowercased() == expected.scheme?.lowercased() && redirect.host?.lowercased() == expected.host?.lowercased()
            && redirect.port == expected.port && redirect.path == expected.path
    }
}
