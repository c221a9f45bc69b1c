public import AuthCore
public import Foundation
public import HTTPTypes

/// Sessions held in cookies: signs in by posting credentials to a login endpoint, recognises an
/// ended session (401, or a redirect to the login page), renews it through the account's
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
/// ``AuthCore/AuthContainer/cookieSessionStrategy(for:allowedHosts:login:csrf:refresh:)``:
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
public struct CookieSessionStrategy: AuthStrategy {
    /// Where and how to post the sign-in credentials.
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

        /// Creates a login description.
        public init(
            url: URL, encoding: Encoding = .json, usernameField: String = "username", passwordField: String = "password",
            loginPagePath: String? = nil, keepsPasswordForReLogin: Bool = false
        ) {
            self.url = url
            self.encoding = encoding
            self.usernameField = usernameField
            self.passwordField = passwordField
            self.loginPagePath = loginPagePath ?? url.path
            self.keepsPasswordForReLogin = keepsPasswordForReLogin
        }
    }

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
    ///   - transport: Sends the login and refresh requests (the plain transport, not an
    ///     authenticated client).
    ///   - jarStore: When given, the jar is saved through it after each sign-in.
    ///   - clock: Dates ``CookieSessionCredential/establishedAt``.
    public init(
        allowedHosts: AllowedHosts, jar: CookieJar, login: Login, csrf: CSRF? = nil, refresh: Refresh? = nil,
        transport: any Transport, jarStore: CookieJarStore? = nil, clock: any AuthClock = SystemClock()
    ) {
        self.allowedHosts = allowedHosts
        self.jar = jar
        self.login = login
        self.csrf = csrf
        self.refresh = refresh
        self.jarStore = jarStore
        self.transport = transport
        self.clock = clock
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

    /// 401, a redirect to the login page, or a 403 for a request whose CSRF header no longer
    /// matches the jar's CSRF cookie.
    ///
    /// The last case is a request that took its CSRF token just before another request signed in
    /// again: it reached the server with the new session cookie but the old token. Reporting it
    /// as a failure retries it with the current token, without another sign-in (the session
    /// sees that the credential already changed). A 403 whose token is still current is an
    /// ordinary refusal.
    public func isAuthenticationFailure(_ response: AuthResponse, for request: AuthRequest) -> Bool {
        if response.status == .unauthorized || isRedirectToLoginPage(response, from: request.url) { return true }
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

    /// Renews through the ``Refresh`` endpoint when one is configured, else (or when the server
    /// refuses the refresh) signs in again if the password was kept.
    /// - Throws: `AuthError.notSignedIn` without a stored credential;
    ///   `.reauthenticationRequired` when neither way is left; as ``signIn(username:password:)``.
    public func renew(_ credential: CookieSessionCredential?, context: RenewalContext) async throws -> CookieSessionCredential {
        guard let credential else { throw AuthError.notSignedIn(context.account) }
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
        return try await signIn(username: credential.username, password: password.reveal)
    }

    /// Posts the credentials, keeps the session cookies in the jar and saves it.
    ///
    /// The login request goes through a ``CookieMiddleware`` on the strategy's jar, so it carries
    /// the jar's cookies and the answer's cookies are stored (and saved through ``jarStore``).
    /// - Returns: The credential to store with `AccountClient.signIn(_:)`.
    /// - Throws: `AuthError.reauthenticationRequired` when the server refuses the credentials
    ///   (401, 403, or a redirect back to the login page), `.renewalFailed` for other statuses,
    ///   or the transport's error.
    public func signIn(username: String, password: String) async throws -> CookieSessionCredential {
        let request = try loginRequest(username: username, password: password)
        let cookies = CookieMiddleware(jar: jar, store: jarStore)
        let response = try await cookies.intercept(request) { try await transport.send($0) }
        let status = response.status.code
        let kept = login.keepsPasswordForReLogin ? password : nil
        switch status {
        case 200..<300:
            return CookieSessionCredential(username: username, password: kept, establishedAt: clock.now())
        case 300..<400 where !isRedirectToLoginPage(response, from: login.url):
            return CookieSessionCredential(username: username, password: kept, establishedAt: clock.now())
        case 300..<400, 401, 403:
            throw AuthError.reauthenticationRequired(nil, reason: "the server refused the sign-in credentials (\(status))")
        default:
            throw AuthError(code: .renewalFailed, message: "the login endpoint answered \(status)", status: status)
        }
    }

    func loginRequest(username: String, password: String) throws -> AuthRequest {
        var request = try AuthRequest(method: .post, url: login.url)
        request.head.headerFields[.accept] = "application/json"
        switch login.encoding {
        case .json:
            request.head.headerFields[.contentType] = "application/json"
            request.body = try JSONEncoder().encode([login.usernameField: username, login.passwordField: password])
        case .form:
            request.head.headerFields[.contentType] = "application/x-www-form-urlencoded"
            request.body = Data([Self.formEncode(login.usernameField, username), Self.formEncode(login.passwordField, password)].joined(separator: "&").utf8)
        }
        return request
    }

    func isRedirectToLoginPage(_ response: AuthResponse, from url: URL?) -> Bool {
        guard (300..<400).contains(response.status.code), let location = response.head.headerFields[.location],
              let target = URL(string: location, relativeTo: url)?.absoluteURL else { return false }
        return Self.trimmedPath(target.path) == Self.trimmedPath(login.loginPagePath)
    }

    private static func trimmedPath(_ path: String) -> String {
        path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }

    /// `name=value` with everything but unreserved characters percent-encoded (RFC 3986 §2.3).
    private static func formEncode(_ name: String, _ value: String) -> String {
        let encode = { (text: String) in FormURLEncoding.encode(text, keeping: .unreserved, spaceAs: .percent20) }
        return encode(name) + "=" + encode(value)
    }

    static let safeMethods: Set<HTTPRequest.Method> = [.get, .head, .options, .trace]
}
