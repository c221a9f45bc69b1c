// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCookie
import AuthCore
import Foundation
import HTTPTypes
import Testing

/// Which login answers start a session: a cookie the answer deletes (`Max-Age=0`, an `Expires`
/// in the past) is no session, so a refusal answered `200` that clears the session cookie is not
/// a sign-in.
@Suite struct SignInAnswerTests {
    static let login = URL(string: "https://app.example.com/login")!

    static func strategy(answering setCookies: [String], success: CookieSessionStrategy.SignInSuccess = .cookieSet) -> CookieSessionStrategy {
        CookieSessionStrategy(
            allowedHosts: AllowedHosts(["app.example.com"]), jar: CookieJar(),
            login: .init(url: login, success: success), csrf: nil,
            transport: ClosureTransport { _ in
                var fields: HTTPFields = [.contentType: "application/json"]
                for value in setCookies { fields.append(HTTPField(name: .setCookie, value: value)) }
                return AuthResponse(status: .ok, headerFields: fields, body: Data(#"{"error":"bad credentials"}"#.utf8))
            })
    }

    /// Before the fix, both answers counted as signed in (the deleted cookie was "kept").
    @Test(arguments: ["session=; Path=/; Max-Age=0", "session=gone; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT"])
    func anAnswerThatOnlyDeletesItsSessionCookieIsNoSignIn(_ deletion: String) async throws {
        for success in [CookieSessionStrategy.SignInSuccess.cookieSet, .cookie(named: "session")] {
            let strategy = Self.strategy(answering: [deletion], success: success)
            await #expect { _ = try await strategy.signIn(username: "alice", password: "wrong") } throws: { error in
                (error as? AuthError)?.code == .invalidCredentials
            }
            #expect(strategy.jar.allCookies.isEmpty)
        }
    }

    @Test func anAnswerThatSetsALiveCookieIsASignIn() async throws {
        let strategy = Self.strategy(answering: ["stale=; Path=/; Max-Age=0", "session=abc; Path=/; Max-Age=600"])
        let credential = try await strategy.signIn(username: "alice", password: "right")
        #expect(credential.username == "alice")
        #expect(strategy.jar.allCookies.map(\.name) == ["session"])
    }
}
