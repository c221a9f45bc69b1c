// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCookie
import AuthCore
import AuthHTTPClient
import AuthTestServer
import Foundation
import HTTPTypes
import Testing

/// Cookie sessions against the real server: one re-login for a burst across a session expiry
/// (signalled by 401 or by a redirect to the login page), CSRF double submit, `Secure` cookies.
@Suite struct CookieSessionTests {
    @Test func twoHundredConcurrentRequestsAcrossSessionExpiryReLogInOnce() async throws {
        try await Harness.run { h in
            let alice = try await h.cookieSessionClient("alice", container: h.cookieContainer())
            #expect(try await alice.client.json(SessionUser.self, .get, h.url("session/me")).username == "alice")
            let logins = h.server.counters.count("sessionLogins")
            h.server.clock.advance(by: 301)  // past the 300 s session lifetime

            let answers = try await withThrowingTaskGroup(of: String.self) { group in
                for index in 0..<200 {
                    group.addTask {
                        if index.isMultiple(of: 4) {  // every fourth is a CSRF-protected POST
                            let echo = try await alice.client.json(NoteEcho.self, .post, h.url("session/notes"), body: Data("note \(index)".utf8))
                            return echo.body == "note \(index)" ? echo.username : "wrong body"
                        }
                        return try await alice.client.json(SessionUser.self, .get, h.url("session/me")).username
                    }
                }
                return try await group.reduce(into: [String]()) { $0.append($1) }
            }
            #expect(answers.count == 200)
            #expect(answers.allSatisfy { $0 == "alice" })
            let counters = h.server.counters
            #expect(counters.count("sessionLogins") == logins + 1)
            #expect(counters.count("sessionRejected") >= 1)  // the expiry really was crossed
            #expect(counters.count("csrfRejected") == 0)
        }
    }

    @Test func redirectToTheLoginPageAlsoTriggersExactlyOneReLogin() async throws {
        try await Harness.run { h in
            let alice = try await h.cookieSessionClient("alice", container: h.cookieContainer())
            let html: HTTPFields = [.accept: "text/html"]
            let expiredSID = try #require(alice.strategy.jar.allCookies.first { $0.name == "sid" }?.value)
            let logins = h.server.counters.count("sessionLogins")
            h.server.clock.advance(by: 301)

            // The signal: an HTML client with an ended session is sent to the login page.
            let raw = try await h.transport.send(AuthRequest(method: .get, url: h.url("session/me"), headerFields: [.accept: "text/html", .cookie: "sid=\(expiredSID)"]))
            #expect(raw.status.code == 302)
            #expect(raw.head.headerFields[.location] == "/session/login-page")

            let statuses = try await withThrowingTaskGroup(of: (Int, String?).self) { group in
                for _ in 0..<50 {
                    group.addTask {
                        let response = try await alice.client.send(.get, h.url("session/me"), headerFields: html)
                        return (response.status.code, try? JSONDecoder().decode(SessionUser.self, from: response.body).username)
                    }
                }
                return try await group.reduce(into: [(Int, String?)]()) { $0.append($1) }
            }
            #expect(statuses.count == 50)
            #expect(statuses.allSatisfy { $0.0 == 200 && $0.1 == "alice" })
            #expect(h.server.counters.count("sessionLogins") == logins + 1)
            // The redirect was recognised, not followed.
            #expect(h.server.counters.requests(path: "/session/login-page") == 0)
        }
    }

    @Test func unsafeRequestsCarryTheCSRFTokenAndWithoutItTheServerRefuses() async throws {
        try await Harness.run { h in
            let store = InMemoryCredentialStore()
            let alice = try await h.cookieSessionClient("alice", container: h.cookieContainer(store: store))
            let echo = try await alice.client.json(NoteEcho.self, .post, h.url("session/notes"), body: Data("hello".utf8))
            #expect(echo == NoteEcho(username: "alice", body: "hello"))
            let csrfCookie = try #require(alice.strategy.jar.allCookies.first { $0.name == "csrf_token" })
            #expect(!csrfCookie.isHTTPOnly)
            #expect(h.server.counters.lastHeaders(path: "/session/notes")["x-csrf-token"] == csrfCookie.value)
            // Safe methods do not carry it.
            _ = try await alice.client.send(.get, h.url("session/me"))
            #expect(h.server.counters.lastHeaders(path: "/session/me")["x-csrf-token"] == nil)
            #expect(h.server.counters.count("csrfRejected") == 0)

            // Another client on the same stored session (cookies and credential), without CSRF: 403.
            let logins = h.server.counters.count("sessionLogins")
            let other = h.cookieContainer(store: store)
            _ = try await other.restoreCookieJar(for: alice.client.account)
            let withoutCSRF = other.cookieSessionStrategy(for: alice.client.account, allowedHosts: h.hosts, login: h.cookieLogin(), csrf: nil)
            let bare = other.makeClient(for: alice.client.account, strategy: withoutCSRF)
            let refused = try await bare.send(.post, h.url("session/notes"), body: Data("forged".utf8))
            #expect(refused.status.code == 403)
            #expect(try JSONDecoder().decode([String: String].self, from: refused.body) == ["error": "csrf"])
            #expect(h.server.counters.lastHeaders(path: "/session/notes")["cookie"]?.contains("sid=") == true)
            #expect(h.server.counters.count("sessionLogins") == logins)  // refused, not signed out

            // A header that does not match the cookie is refused too.
            let mismatched = try await alice.client.send(.post, h.url("session/notes"), headerFields: [CookieSessionStrategy.CSRF.defaultHeader: "not-the-token"], body: Data("forged".utf8))
            #expect(mismatched.status.code == 200)  // the strategy overwrites a caller's stale header
            var forged = try AuthRequest(method: .post, url: h.url("session/notes"), body: Data("forged".utf8))
            forged.head.headerFields[.cookie] = alice.strategy.jar.cookieHeader(for: h.url("session/notes"))
            forged.head.headerFields[CookieSessionStrategy.CSRF.defaultHeader] = "not-the-token"
            #expect(try await h.transport.send(forged).status.code == 403)
            #expect(h.server.counters.count("csrfRejected") == 2)
        }
    }

    @Test func secureCookieIsNeverSentOverPlainHTTP() async throws {
        try await Harness.run { h in
            // A jar that accepts the server's Secure cookie although the origin is http (and
            // that does not count loopback as secure, as it does by default)…
            var lenient = CookieJarConfiguration(treatsLoopbackAsSecure: false)
            lenient.acceptsSecureCookiesFromInsecureOrigins = true
            let alice = try await h.cookieSessionClient("alice", container: h.cookieContainer(configuration: lenient))
            _ = try await alice.client.send(.get, h.url("session/secure-cookie"))
            let secure = try #require(alice.strategy.jar.allCookies.first { $0.name == "secure_pref" })
            #expect(secure.isSecure)
            // …still does not send it over http.
            _ = try await alice.client.json(SessionUser.self, .get, h.url("session/me"))
            let sent = try #require(h.server.counters.lastHeaders(path: "/session/me")["cookie"])
            #expect(sent.contains("sid="))
            #expect(!sent.contains("secure_pref"))

            // Control: a jar that counts loopback as secure does send it, so the check above can fail.
            lenient.treatsLoopbackAsSecure = true
            let bob = try await h.cookieSessionClient("bob", container: h.cookieContainer(configuration: lenient))
            _ = try await bob.client.send(.get, h.url("session/secure-cookie"))
            _ = try await bob.client.json(SessionUser.self, .get, h.url("session/me"))
            #expect(h.server.counters.lastHeaders(path: "/session/me")["cookie"]?.contains("secure_pref=on") == true)

            // A jar that does not count loopback as secure does not even keep a Secure cookie from
            // an http answer.
            let carol = try await h.cookieSessionClient("carol", container: h.cookieContainer(configuration: CookieJarConfiguration(treatsLoopbackAsSecure: false)))
            _ = try await carol.client.send(.get, h.url("session/secure-cookie"))
            #expect(!carol.strategy.jar.allCookies.contains { $0.name == "secure_pref" })
        }
    }

    /// Issue 51: a refused sign-in is `invalidCredentials`, at once (it was
    /// `reauthenticationRequired`, which tells an app to show the sign-in it just showed).
    @Test func wrongPasswordIsInvalidCredentialsAndCountsNoLogin() async throws {
        try await Harness.run { h in
            try await h.register("alice")
            let container = h.cookieContainer()
            let strategy = container.cookieSessionStrategy(for: AccountKey(namespace: "cookies", account: "alice"), allowedHosts: h.hosts, login: h.cookieLogin())
            await #expect { try await strategy.signIn(username: "alice", password: "wrong") } throws: { ($0 as? AuthError)?.code == .invalidCredentials }
            #expect(h.server.counters.count("sessionLogins") == 0)
            #expect(strategy.jar.allCookies.isEmpty)
        }
    }
}

/// The `/session/me` answer.
struct SessionUser: Decodable, Equatable {
    let username: String
}

/// The `/session/notes` answer.
struct NoteEcho: Decodable, Equatable {
    let username: String
    let body: String
}

/// A signed-in cookie-session client and its strategy.
struct CookieSessionClient {
    let client: AccountClient<CookieSessionStrategy>
    let strategy: CookieSessionStrategy
}

extension Harness {
    static let password = "correct horse battery staple"

    /// The server's cookie-session login, with its login page.
    func cookieLogin() -> CookieSessionStrategy.Login {
        .init(url: url("session/login"), loginPagePath: "/session/login-page", keepsPasswordForReLogin: true)
    }

    /// A container with cookies on its clients, over `store`.
    func cookieContainer(store: any CredentialStore = InMemoryCredentialStore(), configuration: CookieJarConfiguration = .init()) -> AuthContainer {
        let container = container(store: store)
        container.useCookies(configuration: configuration)
        return container
    }

    /// Registers `username` (unless `register` is false) and signs in to a cookie session.
    func cookieSessionClient(_ username: String, container: AuthContainer, register: Bool = true) async throws -> CookieSessionClient {
        if register { try await self.register(username) }
        let account = AccountKey(namespace: "cookies", account: username)
        let strategy = container.cookieSessionStrategy(for: account, allowedHosts: hosts, login: cookieLogin())
        let client = container.makeClient(for: account, strategy: strategy)
        try await client.signIn(try await strategy.signIn(username: username, password: Harness.password))
        return CookieSessionClient(client: client, strategy: strategy)
    }
}
