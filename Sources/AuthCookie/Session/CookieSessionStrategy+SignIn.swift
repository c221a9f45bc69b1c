// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
public import Foundation
public import HTTPTypes

extension CookieSessionStrategy {
    /// Where and how to post the sign-in credentials, and how to tell that it worked.
    ///
    /// A sign-in runs as a browser's does: an optional `GET` of the login page (``pageURL``),
    /// which sets the first cookies and carries the form's CSRF token; then the `POST` of the
    /// credentials with that token (``csrf``); then a check of the answer (``success``), because
    /// many servers answer a wrong password with `200` and the form again.
    ///
    /// Presets for servers people run, one line each:
    /// ```swift
    /// let django = CookieSessionStrategy.Login.django(url: URL(string: "https://app.example.com/accounts/login/")!)
    /// let flask = CookieSessionStrategy.Login.flaskWTF(url: URL(string: "https://app.example.com/login")!)
    /// let rails = CookieSessionStrategy.Login.railsForm(url: URL(string: "https://app.example.com/session")!, usernameField: "session[email]", passwordField: "session[password]")
    /// let fastAPI = CookieSessionStrategy.Login.fastAPIUsers(url: URL(string: "https://api.example.com/auth/cookie/login")!)
    /// ```
    public struct Login: Sendable {
        /// How the credentials are encoded.
        public enum Encoding: Sendable { case form, json }
        /// The login endpoint.
        public var url: URL
        /// Form or JSON.
        public var encoding: Encoding
        /// The field name of the user name.
        public var usernameField: String
        /// The field name of the password.
        public var passwordField: String
        /// The path of the login page a server redirects to when the session ended
        /// (defaults to the login URL's path).
        public var loginPagePath: String
        /// Whether the password is kept in the account's credential (in the vault: configure a
        /// cipher to seal it) so that an ended session can be re-established by signing in
        /// again. Off by default: a ``Refresh`` endpoint, or the user, renews instead.
        public var keepsPasswordForReLogin: Bool
        /// The login page to `GET` before posting, for its cookies and CSRF token; nil to post
        /// at once.
        public var pageURL: URL?
        /// Where the login request's CSRF token comes from and how it is sent; nil when the
        /// login endpoint wants none.
        public var csrf: LoginCSRF?
        /// What answer counts as signed in.
        public var success: SignInSuccess
        /// The bounds of each answer of the login page, login and refresh endpoints.
        public var limits = AnswerLimits()

        /// Creates a login description.
        /// - Parameters:
        ///   - url: The login endpoint.
        ///   - encoding: How the credentials are sent; JSON by default.
        ///   - usernameField: The user name's field.
        ///   - passwordField: The password's field.
        ///   - loginPagePath: Where the server sends an ended session; the login URL's path by default.
        ///   - keepsPasswordForReLogin: Whether an ended session signs in again with a kept password.
        ///   - pageURL: The login page to fetch first; nil (the default) posts at once.
        ///   - csrf: The login request's CSRF token; none by default.
        ///   - success: What counts as signed in; ``SignInSuccess/cookieSet`` by default.
        public init(
            url: URL, encoding: Encoding = .json, usernameField: String = "username", passwordField: String = "password",
            loginPagePath: String? = nil, keepsPasswordForReLogin: Bool = false, pageURL: URL? = nil,
            csrf: LoginCSRF? = nil, success: SignInSuccess = .cookieSet
        ) {
            self.url = url
            self.encoding = encoding
            self.usernameField = usernameField
            self.passwordField = passwordField
            self.loginPagePath = loginPagePath ?? url.path
            self.keepsPasswordForReLogin = keepsPasswordForReLogin
            self.pageURL = pageURL
            self.csrf = csrf
            self.success = success
        }

        /// Django's `LoginView` (`django.contrib.auth`): `GET` the form, post `username` and
        /// `password` as a form with its `csrfmiddlewaretoken`. Pair it with ``CSRF/django`` for
        /// the requests after it.
        public static func django(url: URL, keepsPasswordForReLogin: Bool = false) -> Login {
            Login(url: url, encoding: .form, keepsPasswordForReLogin: keepsPasswordForReLogin, pageURL: url, csrf: .pageField("csrfmiddlewaretoken"))
        }

        /// A Rails form (`form_with`, Devise): `GET` the form, post it with its
        /// `authenticity_token`. Rails names fields after the model, so give them.
        public static func railsForm(url: URL, usernameField: String = "session[email]", passwordField: String = "session[password]", keepsPasswordForReLogin: Bool = false) -> Login {
            Login(url: url, encoding: .form, usernameField: usernameField, passwordField: passwordField, keepsPasswordForReLogin: keepsPasswordForReLogin, pageURL: url, csrf: .pageField("authenticity_token"))
        }

        /// A Flask-WTF form (Flask-Login's usual sign-in): `GET` the form, post it with its
        /// `csrf_token` field.
        public static func flaskWTF(url: URL, usernameField: String = "username", passwordField: String = "password", keepsPasswordForReLogin: Bool = false) -> Login {
            Login(url: url, encoding: .form, usernameField: usernameField, passwordField: passwordField, keepsPasswordForReLogin: keepsPasswordForReLogin, pageURL: url, csrf: .pageField("csrf_token"))
        }

        /// fastapi-users' cookie transport (`POST /auth/cookie/login`, form fields `username`,
        /// the user's email, and `password`; answered `204` with the cookie). No CSRF.
        public static func fastAPIUsers(url: URL, keepsPasswordForReLogin: Bool = false) -> Login {
            Login(url: url, encoding: .form, keepsPasswordForReLogin: keepsPasswordForReLogin)
        }
    }

    /// Where a login request's CSRF token comes from and how it goes with the credentials.
    public struct LoginCSRF: Sendable {
        /// Where the token is read once the login page was fetched.
        public enum Source: Sendable {
            /// The cookie of that name in the jar (double submit).
            case cookie(String)
            /// The login page's `<input>` or `<meta>` of that name (a hidden form field, Rails'
            /// `csrf-token` meta tag).
            case pageField(String)
        }
        /// How the token is sent.
        public enum Delivery: Sendable {
            /// In this header.
            case header(HTTPField.Name)
            /// As this field of the login form (or JSON object).
            case field(String)
        }
        /// Where the token comes from.
        public var source: Source
        /// How it is sent.
        public var delivery: Delivery

        /// Creates a login CSRF description.
        public init(source: Source, delivery: Delivery) {
            self.source = source
            self.delivery = delivery
        }

        /// The login page's hidden field `name`, sent back as the form field of the same name,
        /// as a browser submits the form.
        public static func pageField(_ name: String) -> LoginCSRF {
            LoginCSRF(source: .pageField(name), delivery: .field(name))
        }
    }

    /// What answer to a login request counts as signed in.
    ///
    /// Whatever the rule, a `401`, `403` or `400`, a redirect to the login page, and a `2xx` that
    /// shows the login form's password field again are refusals: `AuthError` code
    /// `.invalidCredentials`. A refusal that names CSRF is `.csrfRejected`.
    public struct SignInSuccess: Sendable {
        let check: @Sendable (_ response: AuthResponse, _ keptCookies: [String]) -> Bool
        let expectation: String

        /// The answer set a cookie that the jar kept (the default). A sign-in that sets no
        /// cookie did not start a session; one whose cookies the jar refused fails with the
        /// jar's reason (`.misconfigured`).
        public static let cookieSet = SignInSuccess(expectation: "a cookie") { _, kept in !kept.isEmpty }

        /// The answer set the cookie `name` and the jar kept it.
        public static func cookie(named name: String) -> SignInSuccess {
            SignInSuccess(expectation: "the cookie \(name)") { _, kept in kept.contains(name) }
        }

        /// Your own rule over the answer and the names of the cookies it set that the jar kept.
        public static func custom(_ check: @escaping @Sendable (_ response: AuthResponse, _ keptCookies: [String]) -> Bool) -> SignInSuccess {
            SignInSuccess(expectation: "the answer your rule accepts", check: check)
        }

        init(expectation: String, check: @escaping @Sendable (AuthResponse, [String]) -> Bool) {
            self.check = check
            self.expectation = expectation
        }
    }

    /// Signs in: fetches the login page when configured, posts the credentials with the CSRF
    /// token, keeps the answer's cookies in the jar, and checks the answer with
    /// ``Login/success``. Once it succeeded, the jar holds the new credential's session
    /// (``CookieJar/session``) and is saved through ``jarStore`` over any other session's record.
    /// - Returns: The credential to store with `AccountClient.signIn(_:)`.
    /// - Throws: `AuthError` code `.invalidCredentials` when the server refused the user name or
    ///   password (also as a `200` with the form again, or a redirect back to the login page);
    ///   `.csrfRejected` when it refused the CSRF token; `.misconfigured` when the page has no
    ///   CSRF token, the endpoint refused the request's shape (`422`) or the jar refused every
    ///   cookie of the answer; `.renewalFailed` for other statuses; or the transport's error.
    public func signIn(username: String, password: String) async throws -> CookieSessionCredential {
        let token = try await loginCSRFToken()
        let request = try loginRequest(username: username, password: password, csrfToken: token)
        let (response, kept, refused) = try await exchange(request)
        let status = response.status.code
        if (400..<500).contains(status), refusesCSRF(response) {
            throw AuthError(code: .csrfRejected, message: "the login endpoint refused the sign-in's CSRF token (\(status)); check the login's CSRF source and delivery", status: status)
        }
        switch status {
        case 200..<400 where !isRedirectToLoginPage(response, from: login.url):
            if (200..<300).contains(status), showsPasswordField(response) {
                throw AuthError(code: .invalidCredentials, message: "the server refused the user name or password: it answered \(status) with the login form again", status: status)
            }
            if login.success.check(response, kept) {
                let credential = CookieSessionCredential(username: username, password: login.keepsPasswordForReLogin ? password : nil, establishedAt: clock.now())
                try await establish(credential, renewing: nil)
                return credential
            }
            if kept.isEmpty, let reason = refused.first {
                throw AuthError(code: .misconfigured, message: "the login answer's cookies were all refused by the jar: \(reason.message)", status: status, underlying: reason)
            }
            throw AuthError(code: .invalidCredentials, message: "the sign-in did not start a session: the answer (\(status)) did not set \(login.success.expectation)", status: status)
        case 300..<400, 400, 401, 403:
            throw AuthError(code: .invalidCredentials, message: "the server refused the user name or password (\(status))", status: status)
        case 422:
            throw AuthError(code: .misconfigured, message: "the login endpoint did not accept the request's fields (422): check the login's encoding and field names", status: status)
        default:
            throw AuthError(code: .renewalFailed, message: "the login endpoint answered \(status)", status: status)
        }
    }

    /// The login request's CSRF token: fetches the login page first when configured.
    private func loginCSRFToken() async throws -> String? {
        var page: AuthResponse?
        if let pageURL = login.pageURL {
            var request = try AuthRequest(method: .get, url: pageURL)
            request.head.headerFields[.accept] = "text/html, application/json;q=0.9"
            let response = try await exchange(request).response
            guard (200..<300).contains(response.status.code) else {
                throw AuthError(code: .renewalFailed, message: "the login page answered \(response.status.code)", status: response.status.code)
            }
            page = response
        }
        guard let csrf = login.csrf else { return nil }
        switch csrf.source {
        case .cookie(let name):
            guard let token = jar.cookies(for: login.url).first(where: { $0.name == name })?.value else {
                throw AuthError(code: .misconfigured, message: "the login needs the CSRF cookie \(name), and the jar has none for the login URL\(login.pageURL == nil ? "; set the login's pageURL so that the page sets it" : "")")
            }
            return token
        case .pageField(let name):
            guard let page else {
                throw AuthError(code: .misconfigured, message: "the login's CSRF token comes from the page field \(name), but the login has no pageURL to fetch it from")
            }
            guard let token = HTMLFormField.value(named: name, in: page.body) else {
                throw AuthError(code: .misconfigured, message: "the login page (\(page.status.code)) has no field \(name) to take the CSRF token from")
            }
            return token
        }
    }

    func loginRequest(username: String, password: String, csrfToken: String? = nil) throws -> AuthRequest {
        var request = try AuthRequest(method: .post, url: login.url)
        request.head.headerFields[.accept] = "application/json, text/html;q=0.9"
        var fields = [(login.usernameField, username), (login.passwordField, password)]
        if let csrfToken, let csrf = login.csrf {
            switch csrf.delivery {
            case .header(let name):
                request.head.headerFields[name] = csrfToken
                request.markSecret(header: name.canonicalName)
            case .field(let name):
                fields.append((name, csrfToken))
            }
        }
        switch login.encoding {
        case .json:
            request.head.headerFields[.contentType] = "application/json"
            request.body = try JSONEncoder().encode(Dictionary(fields, uniquingKeysWith: { first, _ in first }))
        case .form:
            request.head.headerFields[.contentType] = "application/x-www-form-urlencoded"
            let encode = { (text: String) in FormURLEncoding.encode(text, keeping: .unreserved, spaceAs: .percent20) }
            request.body = Data(fields.map { encode($0.0) + "=" + encode($0.1) }.joined(separator: "&").utf8)
        }
        return request
    }

    /// Sends a sign-in request with the jar's cookies and stores the answer's cookies one by one
    /// (in the jar only: a successful sign-in saves it, ``establish(_:renewing:)``, over any
    /// record, even one a save could not replace).
    /// - Returns: The answer, the names of the cookies the jar kept (not those the answer deletes:
    ///   a cookie set already expired is no session), and why it refused the others.
    private func exchange(_ request: AuthRequest) async throws -> (response: AuthResponse, kept: [String], refused: [CookieError]) {
        guard let url = request.url else { throw AuthError.invalidRequest("the sign-in request has no URL") }
        var request = request
        request.head.headerFields[.cookie] = jar.cookieHeader(for: url)
        let response = try await transport.send(request, within: login.limits, reading: "the login endpoint")
        var kept: [String] = []
        var refused: [CookieError] = []
        for header in response.head.headerFields[values: .setCookie] {
            do throws(CookieError) {
                let cookie = try jar.setCookie(fromHeaderValue: header, for: url)
                if !cookie.isExpired(at: clock.now()) { kept.append(cookie.name) }
            } catch {
                refused.append(error)
            }
        }
        return (response, kept, refused)
    }

    /// Whether a `2xx` answer is an HTML page with the login form's password field: the form
    /// shown again, as Django, Flask-WTF and Rails answer a wrong password.
    private func showsPasswordField(_ response: AuthResponse) -> Bool {
        guard Self.isHTML(response) else { return false }
        return HTMLFormField.hasInput(named: login.passwordField, in: response.body)
    }

    /// Whether a `4xx` answer to a login request is a CSRF refusal: it names CSRF as an error
    /// (``mentionsCSRF(_:)``), or it is an HTML page about CSRF that is not the login form
    /// (whose hidden CSRF field would mention it too): Django's "CSRF verification failed",
    /// Flask-WTF's "The CSRF token is missing".
    private func refusesCSRF(_ response: AuthResponse) -> Bool {
        if Self.mentionsCSRF(response) { return true }
        guard Self.isHTML(response), !showsPasswordField(response) else { return false }
        return String(decoding: response.body.prefix(4096), as: UTF8.self).range(of: "csrf", options: .caseInsensitive) != nil
    }

    static func isHTML(_ response: AuthResponse) -> Bool {
        response.head.headerFields[.contentType]?.range(of: "html", options: .caseInsensitive) != nil
    }
}
