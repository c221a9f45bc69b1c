// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCookie
import AuthCore
import AuthHTTPClient
import Foundation
import HTTPTypes
import Testing

/// A form sign-in against Flask-Login with Flask-WTF (`Interop/flask_login_server.py`): the
/// form's hidden `csrf_token` is tied to the session cookie the form page sets, a wrong password
/// answers 200 with the form again, and `login_required` redirects an ended session to
/// `/login?next=…` (Flask's permanent session of `--session-seconds`, refreshed by every request).
@Suite(.enabled(if: InteropPeer.shouldRun, InteropPeer.disabledNote), .timeLimit(.minutes(10)))
struct InteropFlaskLoginTests {
    /// Issue 51: the preset GETs the form, posts it with its CSRF field, and sees a wrong password.
    @Test func thePresetSignsInWithTheFormsCSRFFieldAndAWrongPasswordIsInvalidCredentials() async throws {
        try await InteropPeer.run("flask_login_server.py", arguments: ["--session-seconds", "60"]) { peer in
            try await HTTPClientTransport.withTransport { transport in
                let container = InteropPeer.cookieContainer(transport)
                let bob = Self.strategy("bob", peer: peer, container: container)
                let error = await #expect(throws: AuthError.self) { try await bob.signIn(username: "bob", password: "wrong horse") }
                #expect(error?.code == .invalidCredentials)

                let alice = try await Self.signedIn("alice", peer: peer, container: container)
                #expect(try await alice.json(PeerProfile.self, .get, peer.url("api/me")).username == "alice")
                let counters = try await peer.counters(transport)
                #expect(counters["logins"] == 1)
                #expect(counters["failed_logins"] == 1)
                #expect(counters["csrf_failures"] == 0)
            }
        }
    }

    /// Issue 51: once the session ended, 100 concurrent requests are redirected to the login
    /// page; one re-login (a fresh form, its CSRF field), and every request answers 200.
    @Test func anEndedSessionIsRedirectedToTheFormAndReLogsInOnce() async throws {
        try await InteropPeer.run("flask_login_server.py", arguments: ["--session-seconds", "10"]) { peer in
            try await HTTPClientTransport.withTransport { transport in
                let alice = try await Self.signedIn("alice", peer: peer, container: InteropPeer.cookieContainer(transport))
                #expect(try await alice.json(PeerProfile.self, .get, peer.url("api/me")).username == "alice")
                // Flask checks a session cookie's age in whole seconds (also the form page's
                // anonymous one, which the login POST must follow within the lifetime): a 10 s
                // session ends between 10 and 11 s after the last request (10 s, not 5: a loaded
                // machine's re-login and burst must end within one session).
                try await Task.sleep(for: .milliseconds(11_500))
                let answers = try await concurrently(100) { _ in try await alice.json(PeerProfile.self, .get, peer.url("api/me")).username }
                #expect(answers == Array(repeating: "alice", count: 100))
                let counters = try await peer.counters(transport)
                #expect(counters["logins"] == 2)
                #expect(counters["unauthenticated"] >= 1)
                #expect(counters["csrf_failures"] == 0)
            }
        }
    }

    static func strategy(_ username: String, peer: InteropPeer, container: AuthContainer) -> CookieSessionStrategy {
        container.cookieSessionStrategy(
            for: AccountKey(namespace: "flask-login", account: username), allowedHosts: AllowedHosts(origin: peer.base),
            login: .flaskWTF(url: peer.url("login"), keepsPasswordForReLogin: true), csrf: nil)
    }

    static func signedIn(_ username: String, peer: InteropPeer, container: AuthContainer) async throws -> AccountClient<CookieSessionStrategy> {
        let strategy = strategy(username, peer: peer, container: container)
        let client = container.makeClient(for: AccountKey(namespace: "flask-login", account: username), strategy: strategy)
        try await client.signIn(try await strategy.signIn(username: username, password: InteropDjangoTests.password))
        return client
    }
}
