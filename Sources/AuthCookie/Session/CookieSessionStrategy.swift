public import AuthCore
public import Foundation
public import HTTPTypes

/// Sessions held in cookies: signs in by posting credentials to a login endpoint, recognises an
/// ended session (401, or a redirect to the login page), signs in again through the renewal
/// coordinator (one re-login for many concurrent requests), and copies the CSRF cookie into a
/// header on unsafe methods (double submit).
///
/// ```swift
/// let jar = CookieJar()
/// let strategy = CookieSessionStrategy(
///     allowedHosts: AllowedHosts(["app.example.com"]), jar: jar,
///     login: .init(url: URL(string: "https://app.example.com/session/login")!),
///     csrf: .init(cookieName: "csrf_token", headerName: "X-CSRF-Token"),
///     transport: transport)
/// let client = container.makeClient(for: alice, strategy: strategy)   // with container.useCookieJar(jar, for: alice)
/// try await client.signIn(try await strategy.signIn(username: "alice", password: "…"))
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
        /// The field names of the user name and password.
        public var usernameField: String
        /// The password field name.
        public var passwordField: String
        /// The path of the login page a server redirects to when the session ended
        /// (defaults to the login URL's path).
        public var loginPagePath: String

        /// Creates a login description.
        public init(url: URL, encoding: Encoding = .json, usernameField: String = "username", passwordField: String = "password", loginPagePath: String? = nil) {
            self.url = url
            self.encoding = encoding
            self.usernameField = usernameField
            self.passwordField = passwordField
            self.loginPagePath = loginPagePath ?? url.path
        }
    }

    /// Which cookie holds the CSRF token and which header echoes it.
    public struct CSRF: Sendable {
        /// The cookie the server sets.
        public var cookieName: String
        /// The header unsafe requests must carry.
        public var headerName: HTTPField.Name
        /// Creates a CSRF configuration.
        public init(cookieName: String, headerName: String) {
            self.cookieName = cookieName
            self.headerName = HTTPField.Name(headerName) ?? HTTPField.Name("X-CSRF-Token")!
        }
    }

    /// Where the session may be used.
    public let allowedHosts: AllowedHosts
    /// The account's jar.
    public let jar: CookieJar
    /// The login endpoint.
    public let login: Login
    /// The CSRF double-submit configuration, if the server uses one.
    public let csrf: CSRF?
    private let transport: any Transport
    private let clock: any AuthClock

    /// Creates the strategy.
    /// - Parameter transport: Sends the login request (the plain transport, not an
    ///   authenticated client).
    public init(allowedHosts: AllowedHosts, jar: CookieJar, login: Login, csrf: CSRF? = nil, transport: any Transport, clock: any AuthClock = SystemClock()) {
        self.allowedHosts = allowedHosts
        self.jar = jar
        self.login = login
        self.csrf = csrf
        self.transport = transport
        self.clock = clock
    }

    /// Adds the CSRF header on unsafe methods.
    public func authorize(_ request: inout AuthRequest, with credential: CookieSessionCredential) {
        guard let csrf, !Self.safeMethods.contains(request.head.method), let url = request.url,
              let token = jar.cookies(for: url).first(where: { $0.name == csrf.cookieName }) else { return }
        request.head.headerFields[csrf.headerName] = token.value
    }

    /// 401, or a redirect to the login page.
    public func isAuthenticationFailure(_ response: AuthResponse, for request: AuthRequest) -> Bool {
        if response.status == .unauthorized { return true }
        guard (300..<400).contains(response.status.code), let location = response.head.headerFields[.location],
              let target = URL(string: location, relativeTo: request.url) else { return false }
        return target.path == login.loginPagePath
    }

    /// Signs in again with the stored credentials.
    public func renew(_ credential: CookieSessionCredential?, context: RenewalContext) async throws -> CookieSessionCredential {
        guard let credential else { throw AuthError.notSignedIn(context.account) }
        return try await signIn(username: credential.username, password: credential.password.reveal)
    }

    /// Posts the credentials and keeps the session cookies in the jar.
    /// - Returns: The credential to store with `AccountSession.signIn`.
    /// - Throws: `AuthError.reauthenticationRequired` when the server refuses the credentials,
    ///   `.renewalFailed` for other failures.
    public func signIn(username: String, password: String) async throws -> CookieSessionCredential {
        var request = try AuthRequest(method: .post, url: login.url)
        switch login.encoding {
        case .json:
            request.head.headerFields[.contentType] = "application/json"
            request.body = try JSONEncoder().encode([login.usernameField: username, login.passwordField: password])
        case .form:
            request.head.headerFields[.contentType] = "application/x-www-form-urlencoded"
            var components = URLComponents()
            components.queryItems = [URLQueryItem(name: login.usernameField, value: username), URLQueryItem(name: login.passwordField, value: password)]
            request.body = Data((components.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B").utf8)
        }
        let response = try await transport.send(request)
        jar.setCookies(from: response, for: login.url)
        switch response.status.code {
        case 200..<400:
            return CookieSessionCredential(username: username, password: password, establishedAt: clock.now())
        case 401, 403:
            throw AuthError.reauthenticationRequired(nil, reason: "the server refused the sign-in credentials (\(response.status.code))")
        default:
            throw AuthError(code: .renewalFailed, message: "the login endpoint answered \(response.status.code)", status: response.status.code)
        }
    }

    static let safeMethods: Set<HTTPRequest.Method> = [.get, .head, .options, .trace]
}
