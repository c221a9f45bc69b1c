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

extension Story {
    /// A cookie session with CSRF double submit: sign in, a burst across a session expiry that
    /// signs in again exactly once, and a CSRF-protected POST (and a forged one refused).
    ///
    /// Uses its own container (cookies on every client) over the story's credential store, for
    /// the account `demo-cookies/dana`. Advances the server clock by 301 s.
    func cookieSessionStep() async {
        let cookies = AuthContainer()
        cookies.useHTTPClient(transport)
        cookies.override(CredentialStoreKey.self, with: container[CredentialStoreKey.self])
        cookies.useCookies()
        let account = AccountKey(namespace: "demo-cookies", account: "dana")
        let login = CookieSessionStrategy.Login(url: base.appending(path: "session/login"), loginPagePath: "/session/login-page", keepsPasswordForReLogin: true)
        let strategy = cookies.cookieSessionStrategy(for: account, allowedHosts: hosts, login: login)
        let dana = cookies.makeClient(for: account, strategy: strategy)
        let me = base.appending(path: "session/me")

        await report.step("dana signs in to a cookie session") {
            try await register("dana")
            try await dana.signIn(try await strategy.signIn(username: "dana", password: "demo password 1"))
            let user = try await dana.json(SessionUser.self, .get, me)
            let names = strategy.jar.allCookies.map { "\($0.name)\($0.isHTTPOnly ? " (HttpOnly)" : "")" }.sorted()
            try check(user.username == "dana", "/session/me answered \(user.username)")
            return "the jar holds \(names.joined(separator: ", ")), saved in the store; /session/me answers \(user.username)"
        }

        await report.step("\(burst) concurrent cookie-session requests cross a session expiry") {
            let before = server.counters.count("sessionLogins")
            server.clock.advance(by: 301)  // past the 300 s session lifetime
            let names = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<burst {
                    group.addTask { try await dana.json(SessionUser.self, .get, me).username }
                }
                return try await group.reduce(into: [String]()) { $0.append($1) }
            }
            let logins = server.counters.count("sessionLogins") - before
            try check(names.count == burst && Set(names) == ["dana"], "unexpected answers")
            try check(logins == 1, "the server counted \(logins) session logins, expected one")
            return "every request succeeded; the session expired and was re-established exactly once"
        }

        await report.step("A CSRF-protected POST") {
            let notes = base.appending(path: "session/notes")
            let echo = try await dana.json(NoteEcho.self, .post, notes, body: Data("hello from dana".utf8))
            let sent = server.counters.lastHeaders(path: "/session/notes")["x-csrf-token"]
            let token = strategy.jar.cookies(for: notes).first { $0.name == "csrf_token" }?.value
            try check(echo.body == "hello from dana" && sent != nil && sent == token, "the POST did not carry the CSRF cookie's value")
            var forged = try AuthRequest(method: .post, url: notes, body: Data("forged".utf8))
            forged.head.headerFields[.cookie] = strategy.jar.cookieHeader(for: notes)
            let refused = try await transport.send(forged).status.code
            try check(refused == 403, "a POST without the CSRF header answered \(refused)")
            return "the POST carried X-CSRF-Token = the csrf_token cookie and was accepted; the same cookies without the header got \(refused)"
        }
    }
}

/// The `/session/me` answer.
private struct SessionUser: Decodable {
    let username: String
}

/// The `/session/notes` answer.
private struct NoteEcho: Decodable {
    let username: String
    let body: String
}
