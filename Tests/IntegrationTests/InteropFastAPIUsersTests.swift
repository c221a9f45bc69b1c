// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCookie
import AuthCore
import AuthHTTPClient
import AuthOAuth2
import Foundation
import HTTPTypes
import Testing

/// fastapi-users with its default settings (`Interop/fastapi_users_server.py`): the bearer
/// transport (`POST /auth/jwt/login`, an OAuth 2.0 password form answered with a bare access
/// token) and the cookie transport (`POST /auth/cookie/login`, answered 204 with a `Secure`
/// cookie, also over `http://127.0.0.1`); `/users/me` answers 401 without a live token.
@Suite(.enabled(if: InteropPeer.shouldRun, InteropPeer.disabledNote), .timeLimit(.minutes(10)))
struct InteropFastAPIUsersTests {
    /// Issue 51: the cookie transport's default `Secure` cookie over loopback http is kept (the
    /// jar used to drop it and the sign-in reported success with an empty jar); a wrong
    /// password is `invalidCredentials`; an ended cookie (401) signs in again once for 100
    /// concurrent requests.
    @Test func theCookieTransportSignsInAndReLogsInOnceAfterItsTokenEnds() async throws {
        // fastapi-users cuts `exp` to a whole second: a 10 s token lives 9 to 10 s, long enough
        // for a slow burst after the re-login, and for the first request after the sign-in at a
        // full run's loaded start (with 4 s, a delayed one could log in once more).
        try await InteropPeer.run("fastapi_users_server.py", accessSeconds: 10) { peer in
            try await HTTPClientTransport.withTransport { transport in
                let container = InteropPeer.cookieContainer(transport)
                let account = AccountKey(namespace: "fastapi-users", account: "alice")
                let strategy = container.cookieSessionStrategy(
                    for: account, allowedHosts: AllowedHosts(origin: peer.base),
                    login: .fastAPIUsers(url: peer.url("auth/cookie/login"), keepsPasswordForReLogin: true), csrf: nil)
                let error = await #expect(throws: AuthError.self) { try await strategy.signIn(username: "alice@example.com", password: "wrong horse") }
                #expect(error?.code == .invalidCredentials)

                let client = container.makeClient(for: account, strategy: strategy)
                try await client.signIn(try await strategy.signIn(username: "alice@example.com", password: InteropDjangoTests.password))
                #expect(strategy.jar.allCookies.contains { $0.name == "fastapiusersauth" && $0.isSecure })
                #expect(try await client.json(User.self, .get, peer.url("users/me")).email == "alice@example.com")

                try await Task.sleep(for: .milliseconds(10_500))
                let answers = try await concurrently(100) { _ in try await client.json(User.self, .get, peer.url("users/me")).email }
                #expect(answers == Array(repeating: "alice@example.com", count: 100))
                let counters = try await peer.counters(transport)
                #expect(counters["logins"] == 2)
                #expect(counters["failed_logins"] == 1)
            }
        }
    }

    /// Issue 51: the bearer transport's login is an OAuth 2.0 password form, so the token
    /// endpoint's password grant gets its token; its wrong-password answer (400
    /// `{"detail": "LOGIN_BAD_CREDENTIALS"}`, no OAuth 2.0 error) is `invalidCredentials`. The
    /// token comes without a refresh token: once it ends, the client asks for a new sign-in.
    @Test func theBearerTransportSignsInWithThePasswordGrant() async throws {
        try await InteropPeer.run("fastapi_users_server.py", accessSeconds: 10) { peer in
            try await HTTPClientTransport.withTransport { transport in
                let endpoint = OAuth2TokenEndpoint(url: peer.url("auth/jwt/login"), clientID: "cli", transport: transport)
                let error = await #expect(throws: AuthError.self) { try await endpoint.passwordGrant(username: "bob@example.com", password: "wrong horse") }
                #expect(error?.code == .invalidCredentials)

                let container = AuthContainer()
                container.useHTTPClient(transport)
                let strategy = BearerStrategy(allowedHosts: AllowedHosts(origin: peer.base), refresher: OAuth2RefreshTokenRefresher(tokenEndpoint: peer.url("auth/jwt/login"), clientID: "cli", transport: transport))
                let bob = container.makeClient(for: AccountKey(namespace: "fastapi-users", account: "bob"), strategy: strategy)
                try await bob.signIn(try await endpoint.passwordGrant(username: "bob@example.com", password: InteropDjangoTests.password))
                #expect(try await bob.json(User.self, .get, peer.url("users/me")).email == "bob@example.com")

                try await Task.sleep(for: .milliseconds(10_500))
                let ended = await #expect(throws: AuthError.self) { try await bob.send(.get, peer.url("users/me")) }
                #expect(ended?.code == .reauthenticationRequired)
                let counters = try await peer.counters(transport)
                #expect(counters["logins"] == 1)
            }
        }
    }

    /// `GET /users/me`.
    struct User: Decodable { let email: String }
}
