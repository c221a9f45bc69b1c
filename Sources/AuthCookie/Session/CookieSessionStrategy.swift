// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
import Foundation
public import HTTPTypes

/// Sessions held in cookies: signs in by posting credentials to a login endpoint (after its
/// page, with its CSRF token, when the server wants that: see ``Login``), recognises an
/// ended session (``SessionEnd``: 401, a redirect to the login page, a framework's 403), renews it through the account's
/// session (one renewal for many concurrent requests), and copies the CSRF cookie into a
/// header on unsafe methods (double submit).
///
/// Renewal posts to the ``Refresh`` endpoint when one is configured (servers such as
/// flask-jwt-extended renew with a refresh cookie and its own CSRF pair), and falls back to
/// posting the password again only when the user opted in to keep it
/// (``Login/keepsPasswordForReLogin``; seal the vault with a ``/AuthCore/CredentialCipher`` then). Without
/// either, an ended session needs a new sign-in (`AuthError.reauthenticationRequired`). A refusal
/// that names CSRF fails the request with `AuthError` code `.csrfRejected` and renews nothing.
///
/// The cookies travel through the account's ``CookieMiddleware`` (``AuthCore/AuthContainer/useCookies(configuration:)``
/// adds it to every client); the strategy shares that jar, so build it with
/// ``AuthCore/AuthContainer/cookieSessionStrategy(for:allowedHosts:login:csrf:refresh:sessionEnd:)``:
///
/// ```swift
/// container.useCookies()
/// let strategy = container.cookieSessionStrategy(
///     for: alice, allowedHosts: AllowedHosts(["app.example.com"]),
///     login: .init(url: URL(string: "https://app.example.com/session/login")!, loginPagePath: "/session/login-page"),
///     csrf: .init())
/// let client = container.makeClient(for: alice, strategy: strategy)
/// try await client.signIn(try await strategy.signIn(username: "alice", password: password))
/// ```
public struct CookieSessionStrategy: PreparingStrategy {
    /// Which cookie holds the CSRF token and which header echoes it.
    public struct CSRF: Sendable {
        /// `X-CSRF-Token`.
        public static let defaultHeader = HTTPField.Name("X-CSRF-Token")!
        /// The cookie the server sets.
        public var cookieName: String
        /// The header unsafe requests must carry.
        public var headerName: HTTPField.Name
        /// Creates a CSRF configuration; defaults: cookie `csrf_token`, header `X-CSRF-Token`.
        public init(cookieName: String = "csrf_token", headerName: HTTPField.Name = CSRF.defaultHeader) {
            self.cookieName = cookieName
            self.headerName = headerName
        }
        /// Django's: cookie `csrftoken`, header `X-CSRFToken` (also what Django REST framework's
        /// `SessionAuthentication` checks).
        public static let django = CSRF(cookieName: "csrftoken", headerName: HTTPField.Name("X-CSRFToken")!)
    }

    /// Where the session may be used (and the CSRF header sent).
    public let allowedHosts: AllowedHosts
    /// The account's jar.
    public let jar: CookieJar
    /// The login endpoint.
    public let login: Login
    /// The CSRF double-submit configuration of ordinary requests, if the server uses one.
    public let csrf: CSRF?
    /// The refresh endpoint and its CSRF pair, if the server renews sessions that way.
    public let refresh: Refresh?
    /// Which answers mean that the session ended.
    public let sessionEnd: SessionEnd
    /// Where the jar is saved after a sign-in, if anywhere.
    public let jarStore: CookieJarStore?
    let transport: any Transport
    let clock: any AuthClock

    /// Creates the strategy.
    /// - Parameters:
    ///   - allowedHosts: Where the session is used.
    ///   - jar: The account's jar: the one its ``CookieMiddleware`` uses.
    ///   - login: The login endpoint.
    ///   - csrf: The CSRF cookie and header of ordinary requests, when the server wants double submit.
    ///   - refresh: The refresh endpoint, preferred over signing in again.
    ///   - sessionEnd: Which answers mean that the session ended; ``SessionEnd/standard`` by default.
    ///   - transport: Sends the login and refresh requests (the plain transport, not an
    ///     authenticated client).
    ///   - jarStore: When given, the jar is saved through it after each sign-in.
    ///   - clock: Dates ``CookieSessionCredential/establishedAt``.
    public init(
        allowedHosts: AllowedHosts, jar: CookieJar, login: Login, csrf: CSRF? = nil, refresh: Refresh? = nil,
        sessionEnd: SessionEnd = .standard, transport: any Transport, jarStore: CookieJarStore? = nil, clock: any AuthClock = SystemClock()
    ) {
        self.allowedHosts = allowedHosts
        self.jar = jar
        self.login = login
        self.csrf = csrf
        self.refresh = refresh
        self.sessionEnd = sessionEnd
        self.jarStore = jarStore
        self.transport = transport
        self.clock = clock
    }

    /// Before `credential` goes on a request: when another process sharing the store made its
    /// sign-in (or refresh), the jar still holds the cookies of an older one; they are replaced
    /// with those the other process saved for it (``CookieJarStore/follow(_:into:force:)``). A store
    /// that cannot be read leaves the jar as it is until the next request.
    public func prepare(_ credential: CookieSessionCredential) async {
        try? await jarStore?.follow(credential.signInID, into: jar)
    }

    /// Saves the jar as the session of `credential`, before the credential itself is stored: a
    /// sign-in over any record, a refresh of `renewed` only over that session's
    /// (``CookieJarStore/establish(_:session:replacing:)``).
    func establish(_ credential: CookieSessionCredential, renewing renewed: CookieSessionCredential?) async throws {
        guard let jarStore else { return jar.holdSession(credential.signInID) }
        try await jarStore.establish(jar, session: credential.signInID, replacing: renewed?.signInID)
    }

    /// Adds the CSRF header on unsafe methods: the value of the CSRF cookie the request would carry.
    public func authorize(_ request: inout AuthRequest, with credential: CookieSessionCredential) {
        guard let csrf, !Self.safeMethods.contains(request.head.method), let url = request.url,
              let token = csrfToken(for: url, csrf) else { return }
        request.head.headerFields[csrf.headerName] = token
        request.markSecret(header: csrf.headerName.canonicalName)
    }

    /// The CSRF cookie a request to `url` would carry now.
    func csrfToken(for url: URL, _ csrf: CSRF) -> String? {
        jar.cookies(for: url).first(where: { $0.name == csrf.cookieName })?.value
    }

    /// Renews through the ``Refresh`` endpoint when one is configured, else (or when the server
    /// refuses the refresh) signs in again if the password was kept.
    /// - Throws: `AuthError.notSignedIn` without a stored credential;
    ///   `.reauthenticationRequired` when neither way is left or the kept password is refused;
    ///   otherwise as ``signIn(username:password:)``.
    public func renew(_ credential: CookieSessionCredential?, context: RenewalContext) async throws -> CookieSessionCredential {
        guard let credential else { throw AuthError.notSignedIn(context.account) }
        // The refresh cookie of the credential's own session, read again whatever earlier
        // requests found.
        try? await jarStore?.follow(credential.signInID, into: jar, force: true)
        if let refresh {
            switch try await self.refresh(refresh, credential) {
            case .renewed(let renewed): return renewed
            case .refused(let status) where credential.password == nil:
                throw AuthError.reauthenticationRequired(context.account, reason: "the refresh endpoint refused the session (\(status)) and no password was kept")
            case .refused: break
            }
        }
        guard let password = credential.password else {
            throw AuthError.reauthenticationRequired(context.account, reason: "the session ended, no refresh endpoint is configured and no password was kept")
        }
        do {
            return try await signIn(username: credential.username, password: password.reveal)
        } catch let refusal as AuthError where refusal.code == .invalidCredentials {
            throw AuthError.reauthenticationRequired(context.account, reason: "the server refused the kept password: \(refusal.message)", underlying: refusal)
        }
    }

    static let safeMethods: Set<HTTPRequest.Method> = [.get, .head, .options, .trace]
}
