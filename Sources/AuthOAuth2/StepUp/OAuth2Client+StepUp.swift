// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
public import Foundation

extension OAuth2Client {
    /// Signs the user in again at the level a resource asked for (RFC 9470 step-up, or the scope
    /// of an RFC 6750 `insufficient_scope`), through their browser, and checks that the new
    /// sign-in meets it.
    ///
    /// The authorization request asks for the challenge's `acr_values` and `max_age`, and for
    /// `scopes` together with the challenge's scope (`openid` too when an `acr` or `max_age` is
    /// asked for: the ID token says what the sign-in was). Then ``checkStepUp(_:meets:clockSkew:)``
    /// holds the tokens to it: a provider that signed the user in at a lower level does not
    /// satisfy the resource.
    ///
    /// ```swift
    /// let reports = baseURL.appending(path: "reports")
    /// do {
    ///     _ = try await aliceClient.send(.get, reports)
    /// } catch let error as AuthError where error.code == .stepUpRequired {
    ///     guard let challenge = error.underlying as? StepUpChallenge else { throw error }
    ///     try await app.stepUp(aliceClient, for: challenge, scopes: ["openid", "reports"]) { print("Open \($0)") }
    ///     _ = try await aliceClient.send(.get, reports)  // with the new token
    /// }
    /// ```
    /// - Parameters:
    ///   - challenge: What the resource asked for.
    ///   - scopes: The scopes of the sign-in (the challenge's are added).
    ///   - pushed: Push the authorization request (RFC 9126).
    ///   - signed: Sign the authorization request (RFC 9101).
    ///   - timeout: How long the user has to finish.
    ///   - open: Shows the authorization URL to the user.
    /// - Returns: The new tokens.
    /// - Throws: What ``signInWithBrowser(scopes:parameters:pushed:signed:timeout:open:)`` throws;
    ///   `AuthError` `.stepUpRequired` when the new sign-in does not meet the challenge.
    public nonisolated(nonsending) func stepUp(
        _ challenge: StepUpChallenge, scopes: [String], pushed: Bool = false, signed: Bool = false,
        timeout: Duration = .seconds(300), open: (URL) async throws -> Void
    ) async throws -> BearerTokenSet {
        var asked = scopes
        for scope in challenge.scope where !asked.contains(scope) { asked.append(scope) }
        if (!challenge.acrValues.isEmpty || challenge.maxAge != nil), !asked.contains("openid") { asked.insert("openid", at: 0) }
        var parameters: [(String, String)] = []
        if !challenge.acrValues.isEmpty { parameters.append(("acr_values", challenge.acrValues.joined(separator: " "))) }
        if let maxAge = challenge.maxAge { parameters.append(("max_age", String(maxAge))) }
        let tokens = try await signInWithBrowser(scopes: asked, parameters: parameters, pushed: pushed, signed: signed, timeout: timeout, open: open)
        try await checkStepUp(tokens, meets: challenge)
        return tokens
    }

    /// Steps an account up: ``stepUp(_:scopes:pushed:signed:timeout:open:)``, then the new
    /// tokens are signed in for the account, so that its next requests carry them.
    /// - Parameters:
    ///   - account: The account whose request was refused.
    ///   - challenge: What the resource asked for.
    ///   - scopes: The scopes of the sign-in (the challenge's are added).
    ///   - pushed: Push the authorization request (RFC 9126).
    ///   - signed: Sign the authorization request (RFC 9101).
    ///   - timeout: How long the user has to finish.
    ///   - open: Shows the authorization URL to the user.
    /// - Throws: What the step-up throws (the account keeps its tokens then); what storing the
    ///   new tokens throws.
    public nonisolated(nonsending) func stepUp<S: AuthStrategy>(
        _ account: AccountClient<S>, for challenge: StepUpChallenge, scopes: [String], pushed: Bool = false, signed: Bool = false,
        timeout: Duration = .seconds(300), open: (URL) async throws -> Void
    ) async throws where S.Value == BearerTokenSet {
        let tokens = try await stepUp(challenge, scopes: scopes, pushed: pushed, signed: signed, timeout: timeout, open: open)
        try await account.signIn(tokens)
    }

    /// Checks that `tokens` meet `challenge`: the ID token (validated again) names one of its
    /// `acr_values` as `acr`, and an `auth_time` within its `max_age` (with `clockSkew`); the
    /// granted scope, when the provider said it, holds every scope it names.
    /// - Throws: `AuthError` `.stepUpRequired` (the challenge underlying) naming what falls short.
    public func checkStepUp(_ tokens: BearerTokenSet, meets challenge: StepUpChallenge, clockSkew: Duration = .seconds(60)) async throws {
        func short(_ what: String) -> AuthError {
            AuthError(code: .stepUpRequired, message: "the new sign-in does not meet the resource's requirement: \(what)", underlying: challenge)
        }
        if !challenge.acrValues.isEmpty || challenge.maxAge != nil {
            guard let idToken = tokens.idToken else { throw short("no ID token says how the user signed in") }
            let claims = try await validateIDToken(idToken.reveal, nonce: nil, clockSkew: clockSkew)
            if !challenge.acrValues.isEmpty {
                guard let acr = claims.authenticationContextClass, challenge.acrValues.contains(acr) else {
                    throw short("its acr is \(claims.authenticationContextClass ?? "absent"), not one of \(challenge.acrValues.joined(separator: " "))")
                }
            }
            if let maxAge = challenge.maxAge {
                guard let signedInAt = claims.authenticatedAt,
                      clock.now().timeIntervalSince(signedInAt) <= TimeInterval(maxAge) + clockSkew.seconds else {
                    throw short("the user signed in longer than max_age \(maxAge) s ago, or the ID token has no auth_time")
                }
            }
        }
        if !challenge.scope.isEmpty, let granted = tokens.scope.map({ Set($0.split(separator: " ").map(String.init)) }) {
            let missing = challenge.scope.filter { !granted.contains($0) }
            guard missing.isEmpty else { throw short("the provider did not grant \(missing.joined(separator: " "))") }
        }
    }
}
