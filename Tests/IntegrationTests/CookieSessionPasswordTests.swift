// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCookie
import AuthCore
import AuthTestServer
import Foundation
import HTTPTypes
import Testing

/// A cookie session keeps the password only when the user opts in (issue 17).
@Suite struct CookieSessionPasswordTests {
    @Test func withoutOptingInNoPasswordIsStoredAndAnEndedSessionAsksForASignIn() async throws {
        try await Harness.run { h in
            try await h.register("alice")
            let store = InMemoryCredentialStore()
            let container = h.cookieContainer(store: store)
            let account = AccountKey(namespace: "cookies", account: "alice")
            let login = CookieSessionStrategy.Login(url: h.url("session/login"), loginPagePath: "/session/login-page")
            let strategy = container.cookieSessionStrategy(for: account, allowedHosts: h.hosts, login: login)
            let client = container.makeClient(for: account, strategy: strategy)
            try await client.signIn(try await strategy.signIn(username: "alice", password: Harness.password))

            let stored = try #require(try await store.get(account.item("credential")))
            #expect(!String(decoding: stored.payload, as: UTF8.self).contains(Harness.password))
            #expect(try await client.json(SessionUser.self, .get, h.url("session/me")).username == "alice")

            let logins = h.server.counters.count("sessionLogins")
            h.server.clock.advance(by: 301)  // past the 300 s session lifetime
            do {
                _ = try await client.send(.get, h.url("session/me"))
                Issue.record("an ended session without a kept password or a refresh endpoint must ask for a sign-in")
            } catch let error as AuthError {
                #expect(error.code == .reauthenticationRequired)
            }
            #expect(h.server.counters.count("sessionLogins") == logins)
        }
    }
}
