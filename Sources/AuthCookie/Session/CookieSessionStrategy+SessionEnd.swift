// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
import Foundation
import HTTPTypes

extension CookieSessionStrategy {
    /// Which answers mean that the session ended, so that the strategy renews it (signs in again
    /// or refreshes) and retries the request.
    ///
    /// Always: a `401`, and a redirect to the login page (``Login/loginPagePath``). The
    /// ``standard`` rule adds the `403` answers frameworks give a request without a live session:
    /// a `WWW-Authenticate` with `error="invalid_token"`, or a body that says so in one of
    /// ``endedSessionPhrases`` (Django REST framework's `SessionAuthentication` answers
    /// `403 {"detail": "Authentication credentials were not provided."}`). Any other `403` is an
    /// ordinary refusal (the user may not do that), which no renewal changes.
    ///
    /// ```swift
    /// let sessionEnd = CookieSessionStrategy.SessionEnd.standard.adding { response in
    ///     response.status.code == 419  // Laravel's "page expired"
    /// }
    /// ```
    public struct SessionEnd: Sendable {
        /// Phrases (matched without regard to case) of a `403` body that mean "no live session".
        public var endedSessionPhrases: [String]
        private let rules: [@Sendable (AuthResponse) -> Bool]

        /// Creates a rule from phrases of `403` bodies.
        public init(endedSessionPhrases: [String]) {
            self.init(endedSessionPhrases: endedSessionPhrases, rules: [])
        }

        private init(endedSessionPhrases: [String], rules: [@Sendable (AuthResponse) -> Bool]) {
            self.endedSessionPhrases = endedSessionPhrases
            self.rules = rules
        }

        /// 401, a redirect to the login page, and a `403` with `error="invalid_token"` or a body
        /// from Django REST framework ("Authentication credentials were not provided"), FastAPI's
        /// security helpers ("Not authenticated") and the usual "authentication required",
        /// "login required", "session expired".
        public static let standard = SessionEnd(endedSessionPhrases: [
            "authentication credentials were not provided", "not authenticated", "authentication required",
            "login required", "session expired", "session has expired",
        ])

        /// Only 401 and a redirect to the login page.
        public static let unauthorizedOnly = SessionEnd(endedSessionPhrases: [])

        /// This rule, and also any answer `rule` accepts.
        public func adding(_ rule: @escaping @Sendable (AuthResponse) -> Bool) -> SessionEnd {
            SessionEnd(endedSessionPhrases: endedSessionPhrases, rules: rules + [rule])
        }

        /// Whether `response`, not a `401` nor a redirect to the login page, says the session ended.
        func matches(_ response: AuthResponse) -> Bool {
            if response.status == .forbidden, response.hasInvalidTokenChallenge || saysEnded(response.body) { return true }
            return rules.contains { $0(response) }
        }

        private func saysEnded(_ body: Data) -> Bool {
            guard !endedSessionPhrases.isEmpty, !body.isEmpty else { return false }
            let text = String(decoding: body.prefix(4096), as: UTF8.self)
            return endedSessionPhrases.contains { text.range(of: $0, options: .caseInsensitive) != nil }
        }
    }

    /// The session ended (``SessionEnd``), or a 403 came for a request whose CSRF header no
    /// longer matches the jar's CSRF cookie.
    ///
    /// The last case is a request that took its CSRF token just before another request signed in
    /// again: it reached the server with the new session cookie but the old token. Reporting it
    /// as a failure retries it with the current token, without another sign-in (the session
    /// sees that the credential already changed). A 403 whose token is still current is an
    /// ordinary refusal.
    public func isAuthenticationFailure(_ response: AuthResponse, for request: AuthRequest) -> Bool {
        if response.status == .unauthorized || isRedirectToLoginPage(response, from: request.url) || sessionEnd.matches(response) { return true }
        guard response.status == .forbidden, let csrf, let url = request.url,
              let sent = request.head.headerFields[csrf.headerName] else { return false }
        return csrfToken(for: url, csrf) != sent
    }

    /// A 401 or 403 whose body or `WWW-Authenticate` names CSRF, for a request whose CSRF header
    /// (if any) is the jar's current token: the server wants a CSRF header the configuration does
    /// not send, which no renewal fixes. A stale token is not such a failure (it is retried).
    public func nonRenewableFailure(_ response: AuthResponse, for request: AuthRequest) -> AuthError? {
        guard response.status == .unauthorized || response.status == .forbidden, Self.mentionsCSRF(response) else { return nil }
        if let csrf, let url = request.url, let sent = request.head.headerFields[csrf.headerName], csrfToken(for: url, csrf) != sent {
            return nil
        }
        let sentHeader = csrf.map { "the \($0.headerName.rawName) header from cookie \($0.cookieName)" } ?? "no CSRF header"
        return AuthError(
            code: .csrfRejected,
            message: "the server refused the request's CSRF token (\(response.status.code)) with \(sentHeader); check the CSRF cookie and header pair",
            status: response.status.code)
    }

    func isRedirectToLoginPage(_ response: AuthResponse, from url: URL?) -> Bool {
        guard (300..<400).contains(response.status.code), let location = response.head.headerFields[.location],
              let target = URL(string: location, relativeTo: url)?.absoluteURL else { return false }
        return Self.trimmedPath(target.path) == Self.trimmedPath(login.loginPagePath)
    }

    private static func trimmedPath(_ path: String) -> String {
        path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }

    /// Whether a refusal names CSRF where a server states an error: in `WWW-Authenticate`, or in
    /// a JSON error body (`{"msg": "Missing CSRF token"}`, as flask-jwt-extended answers). An
    /// HTML page that merely holds a CSRF field (a login page answering an ended session) does
    /// not count: that session is renewed as usual.
    static func mentionsCSRF(_ response: AuthResponse) -> Bool {
        if let challenge = response.head.headerFields[.wwwAuthenticate], challenge.range(of: "csrf", options: .caseInsensitive) != nil {
            return true
        }
        let body = response.body.prefix(4096)
        let isJSON = response.head.headerFields[.contentType]?.range(of: "json", options: .caseInsensitive) != nil
            || body.first(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\n") && $0 != UInt8(ascii: "\t") && $0 != UInt8(ascii: "\r") }) == UInt8(ascii: "{")
        return isJSON && String(decoding: body, as: UTF8.self).range(of: "csrf", options: .caseInsensitive) != nil
    }
}
