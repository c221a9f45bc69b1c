// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdBcrypt
import NIOPosix
import Synchronization

/// Cookie sessions with CSRF double submit, under `/session`.
///
/// - `POST /session/login`: JSON (or form) `{username, password}`; sets the HttpOnly session
///   cookie `sid` and the readable CSRF cookie `csrf_token` (both `Path=/`, `SameSite=Lax`,
///   `Max-Age` = the session lifetime) and answers `{"username": …}`. Counts `sessionLogins`.
/// - `GET /session/login-page`: the HTML login page that ended sessions are redirected to.
/// - `GET /session/me`: `{"username": …}` of the session.
/// - `POST|PUT|PATCH|DELETE /session/notes`: echoes the body as `{"username": …, "body": …}`.
/// - `GET /session/secure-cookie`: sets a `Secure` cookie `secure_pref` (for client tests).
/// - `POST /session/logout`: ends the session and expires both cookies (204).
///
/// Every route but login and the login page needs a live session: a missing, unknown or expired
/// `sid` answers 401 `{"error":"session_expired"}` (counted as `sessionRejected`), or a 302 to
/// `/session/login-page` when the request's `Accept` header includes `text/html` (what a browser
/// would get). Unsafe methods also need an `X-CSRF-Token` header equal to the `csrf_token` cookie
/// and to the session's token; otherwise 403 `{"error":"csrf"}` (counted as `csrfRejected`).
/// Sessions last ``lifetime`` seconds on the server clock from sign-in (300 s by default).
struct CookieSessionRoutes: RouteGroup {
    /// The session cookie's name.
    static let sessionCookie = "sid"
    /// The CSRF cookie's name.
    static let csrfCookie = "csrf_token"
    /// The header that must echo the CSRF cookie on unsafe methods.
    static let csrfHeader = HTTPField.Name("X-CSRF-Token")!
    /// Where an ended session is redirected for HTML clients.
    static let loginPage = "/session/login-page"

    /// How long a session lasts after sign-in, in seconds of server time.
    let lifetime: TimeInterval

    /// Creates the routes.
    /// - Parameter lifetime: Session lifetime in seconds (default 300).
    init(lifetime: TimeInterval = 300) {
        self.lifetime = lifetime
    }

    func addRoutes(to router: Router<BasicRequestContext>, environment: RouteEnvironment) {
        let sessions = SessionTable()
        let lifetime = lifetime
        let limit = environment.configuration.maxBodySize
        router.post("/session/login") { request, _ in
            try await login(request, sessions: sessions, environment: environment, limit: limit)
        }
        router.get(.init(Self.loginPage)) { _, _ in
            ServerResponse.raw(.ok, body: "<!doctype html><form method=post action=/session/login><input name=username><input name=password type=password></form>", contentType: "text/html; charset=utf-8")
        }
        router.get("/session/me") { request, _ in
            try await guarded(request, sessions: sessions, environment: environment) { session in
                ServerResponse.json(.ok, ["username": session.username])
            }
        }
        router.get("/session/secure-cookie") { request, _ in
            try await guarded(request, sessions: sessions, environment: environment) { _ in
                var headers = HTTPFields()
                headers.append(HTTPField(name: .setCookie, value: "secure_pref=on; Path=/; Secure; Max-Age=\(Int(lifetime))"))
                return ServerResponse.json(.ok, ["set": "secure_pref"], headers: headers)
            }
        }
        let echo: @Sendable (Request, BasicRequestContext) async throws -> Response = { request, _ in
            try await guarded(request, sessions: sessions, environment: environment) { session in
                let body = try await request.collectData(upTo: limit)
                return ServerResponse.json(.ok, ["username": session.username, "body": String(decoding: body, as: UTF8.self)])
            }
        }
        router.post("/session/notes", use: echo)
        router.put("/session/notes", use: echo)
        router.patch("/session/notes", use: echo)
        router.delete("/session/notes", use: echo)
        router.post("/session/logout") { request, _ in
            try await guarded(request, sessions: sessions, environment: environment) { session in
                sessions.remove(session.id)
                var headers = HTTPFields()
                headers.append(HTTPField(name: .setCookie, value: "\(Self.sessionCookie)=; Path=/; HttpOnly; Max-Age=0"))
                headers.append(HTTPField(name: .setCookie, value: "\(Self.csrfCookie)=; Path=/; Max-Age=0"))
                return Response(status: .noContent, headers: headers)
            }
        }
    }

    private struct Credentials: Decodable {
        let username: String
        let password: String
    }

    private func login(_ request: Request, sessions: SessionTable, environment: RouteEnvironment, limit: Int) async throws -> Response {
        let body = try await request.collectData(upTo: limit)
        guard let credentials = Self.credentials(from: body, contentType: request.headers[.contentType]) else {
            return ServerResponse.error(.badRequest, "invalid_request", description: "body must be JSON or a form with username and password")
        }
        let invalid = ServerResponse.error(.unauthorized, "invalid_credentials", description: "wrong username or password")
        guard let user = await environment.state.user(named: credentials.username) else { return invalid }
        let password = credentials.password
        let hash = user.passwordHash
        let matches = try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(password, hash: hash) }
        guard matches else { return invalid }
        let session = sessions.create(username: user.username, expiresAt: environment.clock.now().addingTimeInterval(lifetime))
        environment.counters.record(.custom("sessionLogins"))
        var headers = HTTPFields()
        let maxAge = Int(lifetime.rounded(.up))
        headers.append(HTTPField(name: .setCookie, value: "\(Self.sessionCookie)=\(session.id); Path=/; HttpOnly; SameSite=Lax; Max-Age=\(maxAge)"))
        headers.append(HTTPField(name: .setCookie, value: "\(Self.csrfCookie)=\(session.csrf); Path=/; SameSite=Lax; Max-Age=\(maxAge)"))
        return ServerResponse.json(.ok, ["username": user.username], headers: headers)
    }

    /// Runs `body` for a request with a live session (and, on unsafe methods, a valid CSRF header).
    private func guarded(_ request: Request, sessions: SessionTable, environment: RouteEnvironment, _ body: (Session) async throws -> Response) async throws -> Response {
        let cookies = Self.cookies(of: request)
        guard let id = cookies[Self.sessionCookie], let session = sessions.live(id, now: environment.clock.now()) else {
            environment.counters.record(.custom("sessionRejected"))
            if request.headers[.accept]?.lowercased().contains("text/html") == true {
                return ServerResponse.redirect(to: Self.loginPage, status: 302)
            }
            return ServerResponse.error(.unauthorized, "session_expired", description: "no live session; sign in at /session/login")
        }
        if ![.get, .head, .options, .trace].contains(request.method) {
            let header = request.headers[Self.csrfHeader]
            guard let header, header == cookies[Self.csrfCookie], header == session.csrf else {
                environment.counters.record(.custom("csrfRejected"))
                return ServerResponse.json(.forbidden, ["error": "csrf"])
            }
        }
        return try await body(session)
    }

    /// The request's cookies by name (the first of repeated names wins, as RFC 6265 orders them).
    static func cookies(of request: Request) -> [String: String] {
        var result: [String: String] = [:]
        for field in request.headers[values: .cookie] {
            for pair in field.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard parts.count == 2 else { continue }
                let name = parts[0].trimmingCharacters(in: .whitespaces)
                if result[name] == nil { result[name] = parts[1].trimmingCharacters(in: .whitespaces) }
            }
        }
        return result
    }

    /// Username and password from a JSON or `application/x-www-form-urlencoded` body.
    private static func credentials(from body: Data, contentType: String?) -> Credentials? {
        if contentType?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true {
            // The first item of each name; its value nil without `=` or with malformed escapes.
            let items = FormURLEncoding.items(String(decoding: body, as: UTF8.self))
            let value = { (name: String) in items.first { FormURLEncoding.decode($0.name) == name }?.value.flatMap(FormURLEncoding.decode) }
            guard let username = value("username"), let password = value("password") else { return nil }
            return Credentials(username: username, password: password)
        }
        return try? JSONDecoder().decode(Credentials.self, from: body)
    }
}

/// One signed-in cookie session.
private struct Session: Sendable {
    let id: String
    let username: String
    let csrf: String
    let expiresAt: Date
}

/// The sessions of one server instance.
private final class SessionTable: Sendable {
    private let sessions = Mutex<[String: Session]>([:])

    func create(username: String, expiresAt: Date) -> Session {
        let session = Session(id: Self.randomToken(), username: username, csrf: Self.randomToken(), expiresAt: expiresAt)
        sessions.withLock { $0[session.id] = session }
        return session
    }

    /// The session with this id if it has not expired at `now`; an expired one is removed.
    func live(_ id: String, now: Date) -> Session? {
        sessions.withLock { sessions in
            guard let session = sessions[id] else { return nil }
            guard session.expiresAt > now else {
                sessions[id] = nil
                return nil
            }
            return session
        }
    }

    func remove(_ id: String) {
        _ = sessions.withLock { $0.removeValue(forKey: id) }
    }

    /// 32 random bytes (the system's secure generator), base64url.
    private static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return Base64URL.encode(Data((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }))
    }
}
