// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
public import Foundation
public import HTTPTypes

extension CookieSessionStrategy {
    /// A refresh endpoint: a request that carries the refresh cookie (and its own CSRF header,
    /// if the server pairs one with it) and answers with new session cookies.
    ///
    /// flask-jwt-extended, for one: `POST /refresh` with cookie `refresh_token_cookie` and header
    /// `X-CSRF-TOKEN` echoing cookie `csrf_refresh_token`:
    /// ```swift
    /// let refresh = CookieSessionStrategy.Refresh(
    ///     url: URL(string: "https://app.example.com/refresh")!,
    ///     csrf: .init(cookieName: "csrf_refresh_token", headerName: HTTPField.Name("X-CSRF-TOKEN")!))
    /// ```
    public struct Refresh: Sendable {
        /// The endpoint.
        public var url: URL
        /// The method; `POST` by default.
        public var method: HTTPRequest.Method
        /// The CSRF cookie and header of refresh requests, when the server wants one.
        public var csrf: CSRF?

        /// Creates a refresh endpoint description.
        public init(url: URL, method: HTTPRequest.Method = .post, csrf: CSRF? = nil) {
            self.url = url
            self.method = method
            self.csrf = csrf
        }
    }

    /// What a refresh came to: new cookies, or a refusal that only a sign-in can answer.
    enum RefreshOutcome {
        case renewed(CookieSessionCredential)
        case refused(status: Int)
    }

    /// Sends the refresh request through a ``CookieMiddleware`` on the jar (so it carries the
    /// refresh cookie and stores the answer's cookies).
    /// - Throws: `AuthError` code `.renewalFailed` for a status that may pass (5xx, 429…), or the
    ///   transport's error.
    func refresh(_ refresh: Refresh, _ credential: CookieSessionCredential) async throws -> RefreshOutcome {
        var request = try AuthRequest(method: refresh.method, url: refresh.url)
        request.head.headerFields[.accept] = "application/json"
        if let csrf = refresh.csrf, let token = csrfToken(for: refresh.url, csrf) {
            request.head.headerFields[csrf.headerName] = token
            request.markSecret(header: csrf.headerName.canonicalName)
        }
        let cookies = CookieMiddleware(jar: jar, store: jarStore)
        let response = try await cookies.intercept(request) { [login] in try await transport.send($0, within: login.limits, reading: "the refresh endpoint") }
        let status = response.status.code
        switch status {
        case 200..<300:
            let renewed = CookieSessionCredential(username: credential.username, password: credential.password?.reveal, establishedAt: clock.now())
            try await establish(renewed, renewing: credential)
            return .renewed(renewed)
        case 300..<400 where isRedirectToLoginPage(response, from: refresh.url), 400, 401, 403, 422:
            return .refused(status: status)
        default:
            throw AuthError(code: .renewalFailed, message: "the refresh endpoint answered \(status)", status: status)
        }
    }
}
