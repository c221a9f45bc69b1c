// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes

/// Puts the account's credential on requests to allowed hosts, renewing it when due and again
/// when the server rejects it.
///
/// Requests to origins the strategy does not allow pass through without the credential (taken
/// off again if a server echoed it into a redirect), and the account's events report
/// ``AuthEvent/credentialWithheld(_:)`` (see ``CredentialScope``). When a response is an
/// authentication failure, the request is sent once more with a newer credential: the current
/// one if another request already renewed it, or a renewed one (one renewal for all concurrent
/// requests, see ``AccountSession``). When that newer credential is refused too, the request
/// tries once more, with a renewed or newer credential, only if the server had answered requests
/// made with the refused one (a status below 400), so that it went stale sooner than the client
/// expected (a token whose issue time the server rounded down, a request held up on a loaded
/// machine), if it is due for renewal by the client's own clock (it expired on its way), or if a
/// newer one came. A failure the strategy says no renewal can fix, a failure with a credential
/// the server never answered with and the client does not hold due, and a third failure throw
/// `AuthError` (``ErrorCode/csrfRejected`` or ``ErrorCode/rejectedAfterRenewal``)
/// rather than renew again.
///
/// With a ``CredentialAccessGate``, a request that would carry the credential first waits for
/// the gate's approval; refused, it fails with ``ErrorCode/accessDenied`` and nothing is sent.
public struct AuthenticationMiddleware<Strategy: AuthStrategy>: Middleware {
    /// The account's session.
    public let session: AccountSession<Strategy>
    /// The strategy's hosts and the account's events, copied out so the per-request check
    /// touches no generic value.
    private let scope: CredentialScope
    /// Asked before the credential is used, when the app has one.
    public let accessGate: CredentialAccessGate?
    /// The strategy's ``PreparingStrategy/prepare(_:)``, when it has that capability: found once
    /// here, so that other strategies pay nothing for it per request.
    private let prepare: (@Sendable (Strategy.Value) async -> Void)?

    /// Creates the middleware for one account.
    /// - Parameters:
    ///   - session: The account's session.
    ///   - accessGate: Asked before a request uses the stored credential; nil for none.
    public init(session: AccountSession<Strategy>, accessGate: CredentialAccessGate? = nil) {
        self.session = session
        self.scope = CredentialScope(allowedHosts: session.strategy.allowedHosts, account: session.account, events: session.events)
        self.accessGate = accessGate
        self.prepare = Self.preparation(of: session.strategy)
    }

    /// `strategy`'s ``PreparingStrategy/prepare(_:)``, when it is a ``PreparingStrategy``.
    private static func preparation(of strategy: Strategy) -> (@Sendable (Strategy.Value) async -> Void)? {
        guard let preparing = strategy as? any PreparingStrategy<Strategy.Value> else { return nil }
        return { credential in await preparing.prepare(credential) }
    }

    /// Authorizes, sends, and on an authentication failure renews and retries (twice at most).
    public nonisolated(nonsending) func intercept(_ request: AuthRequest, next: Next) async throws -> AuthResponse {
        guard admits(request) else { return try await next(withheld(request)) }
        if let accessGate, !accessGate.isApproved(session.account) { try await admit(request, through: accessGate) }
        // One reading of the clock serves the credential's check and the request's sending time
        // (the skew estimate's bracket, see `observeServerDate`), microseconds apart: a sending
        // time taken early (before a strategy signs a large body, say) only widens the bracket.
        var sent = session.clock.now()
        let credential: AccountSession<Strategy>.Published
        if let ready = session.readyCredential(at: sent) {
            credential = ready
        } else {
            credential = try await session.pendingPublished()
            sent = session.clock.now()
        }
        if let prepare { await prepare(credential.credential) }
        let authorized = authorized(request, with: credential)
        let response = try await next(authorized)
        guard isRefused(response, to: authorized, with: credential, sentAt: sent) else { return response }
        return try await renewAndRetry(request, refused: response, of: authorized, with: credential, next: next)
    }

    // The synchronous steps of `intercept` are functions of their own, kept out of it: their
    // temporaries then live on the thread's stack, not in `intercept`'s frame, which every
    // request waiting for a renewal keeps allocated (see the Pipeline benchmark's renewal storms).

    @inline(never)
    private func admits(_ request: AuthRequest) -> Bool {
        scope.admits(request, credential: "\(Strategy.Value.self)")
    }

    @inline(never)
    private func authorized(_ request: AuthRequest, with credential: AccountSession<Strategy>.Published) -> AuthRequest {
        var authorized = request
        authorize(&authorized, with: credential)
        return authorized
    }

    /// Whether `response` refused `request` for its credential; otherwise the server took the
    /// credential when it answered below 400 (not refused in another way: 403, 404, 429, 5xx).
    @inline(never)
    private func isRefused(_ response: AuthResponse, to request: AuthRequest, with credential: AccountSession<Strategy>.Published, sentAt sent: Date) -> Bool {
        observeDate(response, sentAt: sent)
        guard isAuthenticationFailure(response, for: request) else {
            if response.status.code < 400 { session.noteAccepted(credential) }
            return false
        }
        return true
    }

    /// Renews the refused credential and sends `request` again (twice at most).
    private nonisolated(nonsending) func renewAndRetry(
        _ request: AuthRequest,
        refused response: AuthResponse,
        of authorized: AuthRequest,
        with credential: AccountSession<Strategy>.Published,
        next: Next
    ) async throws -> AuthResponse {
        if let error = session.strategy.nonRenewableFailure(response, for: authorized) { throw reported(error) }
        var rejected = credential
        var extraAttempt = false
        while true {
            let fresh = AccountSession<Strategy>.Published(try await session.renew(from: rejected.credential))
            if let prepare { await prepare(fresh.credential) }
            var retry = request
            authorize(&retry, with: fresh)
            let resent = session.clock.now()
            let again = try await next(retry)
            observeDate(again, sentAt: resent)
            guard isAuthenticationFailure(again, for: retry) else { return again }
            if let error = session.strategy.nonRenewableFailure(again, for: retry) { throw reported(error) }
            // Refused again: once more only if the server had answered requests made with this
            // credential (it went stale since), it is due by the client's clock, or a newer one
            // came; not for a valid one it never answered with (see `AccountSession+Acceptance`).
            if extraAttempt { throw rejectedAgain(again) }
            guard await session.mayTryAgain(after: fresh) else { throw rejectedAgain(again) }
            rejected = fresh
            extraAttempt = true
        }
    }

    /// A strategy's non-renewable failure with the account on it; a step-up also reported as
    /// ``AuthEvent/stepUpRequired(_:_:)``.
    private func reported(_ error: AuthError) -> AuthError {
        if let challenge = error.underlying as? StepUpChallenge { session.events.emit(.stepUpRequired(session.account, challenge)) }
        guard error.account == nil else { return error }
        return AuthError(code: error.code, message: error.message, account: session.account, status: error.status, responseBody: error.responseBody, underlying: error.underlying, retryAfter: error.retryAfter)
    }

    /// Asks the gate before the credential is used or renewed; not for an account with no
    /// credential (nothing to approve: the request fails with `notSignedIn` as without a gate).
    private nonisolated(nonsending) func admit(_ request: AuthRequest, through gate: CredentialAccessGate) async throws {
        guard try await session.isSignedIn() else { throw AuthError.notSignedIn(session.account) }
        guard let origin = request.origin else { throw AuthError.invalidRequest("the request has no origin") }
        try await gate.admit(CredentialAccess(account: session.account, origin: origin, method: request.head.method.rawValue))
    }

    private func rejectedAgain(_ response: AuthResponse) -> AuthError {
        AuthError(
            code: .rejectedAfterRenewal,
            message: "the server refused the request again (\(response.status.code)) with a newer credential; another renewal would not help",
            account: session.account, status: response.status.code)
    }

    /// `request` without the credential, should it be there already (a server echoed an API key
    /// into a redirect's `Location`).
    private func withheld(_ request: AuthRequest) -> AuthRequest {
        guard let credential = session.loadedCredential() else { return request }
        return request.removingWrites { session.strategy.authorize(&$0, with: credential) }
    }

    private func authorize(_ request: inout AuthRequest, with credential: AccountSession<Strategy>.Published) {
        session.strategy.authorize(&request, with: credential.credential)
    }

    private func isAuthenticationFailure(_ response: AuthResponse, for request: AuthRequest) -> Bool {
        session.strategy.isAuthenticationFailure(response, for: request)
    }

    /// Reads the response's `Date` for the clock skew estimate, the first response of each second.
    private func observeDate(_ response: AuthResponse, sentAt sent: Date) {
        guard session.takesServerDate(sentAt: sent), let value = response.headerValue(.date) else { return }
        session.observeServerDateField(value, sentAt: sent)
    }
}
