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

/// A cookie session against flask-jwt-extended (`Interop/flask_jwt_server.py`): JWTs in
/// cookies, its CSRF double submit (`X-CSRF-TOKEN` echoing `csrf_access_token`, and
/// `csrf_refresh_token` on `/refresh`), renewal through its `/refresh` rather than a new login.
/// Every 200 also shows that exactly one `Cookie` line reached werkzeug: it answers 401 or 422
/// when the JWT cookie is missing or garbled.
@Suite(.enabled(if: InteropPeer.shouldRun, InteropPeer.disabledNote), .timeLimit(.minutes(10)))
struct InteropFlaskCookieTests {
    static let csrfHeader = HTTPField.Name("X-CSRF-TOKEN")!

    @Test func hundredConcurrentPostsAcrossAnExpiryRefreshTheCookieOnce() async throws {
        try await InteropPeer.run("flask_jwt_server.py", accessSeconds: 2) { peer in
            try await HTTPClientTransport.withTransport { transport in
                let alice = try await Self.signedIn("alice", peer: peer, container: InteropPeer.cookieContainer(transport))
                #expect(try await alice.json(Note.self, .post, peer.url("api/notes"), body: Note.body(0), headerFields: Note.json).username == "alice")

                try await Task.sleep(for: .milliseconds(2500))  // past the 2 s access-token lifetime
                let answers = try await concurrently(100) { index in
                    let response = try await alice.send(.post, peer.url("api/notes"), headerFields: Note.json, body: Note.body(index))
                    let note = try? JSONDecoder().decode(Note.self, from: response.body)
                    return response.status.code == 200 && note == Note(username: "alice", note: .init(n: index))
                }
                #expect(answers.count == 100)
                #expect(answers.allSatisfy { $0 })
                let counters = try await peer.counters(transport)
                #expect(counters["cookie_refreshes"] == 1)
                #expect(counters["logins"] == 1)  // renewed through /refresh, not a new login
            }
        }
    }

    /// Issue 51: a server on the developer's machine that marks its cookies `Secure` (as a
    /// deployed app does; fastapi-users' default) is used over `http://127.0.0.1`. Browsers treat
    /// loopback as a secure context; the jar used to drop the cookies silently, and the first
    /// request after a "successful" sign-in failed.
    @Test func secureCookiesFromALoopbackServerAreKeptAndSent() async throws {
        try await InteropPeer.run("flask_jwt_server.py", accessSeconds: 60, arguments: ["--secure-cookies"]) { peer in
            try await HTTPClientTransport.withTransport { transport in
                let alice = try await Self.signedIn("alice", peer: peer, container: InteropPeer.cookieContainer(transport))
                #expect(try await alice.json(Note.self, .post, peer.url("api/notes"), body: Note.body(1), headerFields: Note.json).username == "alice")
            }
        }
    }

    @Test func postWithoutTheCSRFHeaderIsATypedErrorAndRenewsNothing() async throws {
        try await InteropPeer.run("flask_jwt_server.py", accessSeconds: 60) { peer in
            try await HTTPClientTransport.withTransport { transport in
                let store = InMemoryCredentialStore()
                let first = InteropPeer.cookieContainer(transport, store: store)
                let alice = try await Self.signedIn("alice", peer: peer, container: first)
                // A second container (clients of one container share one session) on the same
                // store and cookie jars, whose strategy sends no CSRF header. flask-jwt-extended's
                // cookies are session cookies, so they are shared, not saved and restored.
                let other = InteropPeer.cookieContainer(transport, store: store)
                other.override(CookieJarsKey.self, with: first[CookieJarsKey.self])
                let strategy = other.cookieSessionStrategy(
                    for: alice.account, allowedHosts: AllowedHosts(origin: peer.base),
                    login: .init(url: peer.url("login")), csrf: nil, refresh: Self.refresh(peer))
                let bare = other.makeClient(for: alice.account, strategy: strategy)
                let before = try await peer.counters(transport)

                await #expect { try await bare.send(.post, peer.url("api/notes"), headerFields: Note.json, body: Note.body(1)) } throws: {
                    ($0 as? AuthError)?.code == .csrfRejected
                }
                let after = try await peer.counters(transport)
                #expect(after.requests(path: "/api/notes") == before.requests(path: "/api/notes") + 1)
                #expect(after["cookie_refreshes"] == before["cookie_refreshes"])
                #expect(after["logins"] == before["logins"])
                // The session itself is fine: the client with CSRF still posts.
                #expect(try await alice.json(Note.self, .post, peer.url("api/notes"), body: Note.body(2), headerFields: Note.json).note == .init(n: 2))
            }
        }
    }

    /// The refresh endpoint and its CSRF pair.
    static func refresh(_ peer: InteropPeer) -> CookieSessionStrategy.Refresh {
        .init(url: peer.url("refresh"), csrf: .init(cookieName: "csrf_refresh_token", headerName: csrfHeader))
    }

    /// A client of `username` on `container`, signed in through `/login`.
    static func signedIn(_ username: String, peer: InteropPeer, container: AuthContainer) async throws -> AccountClient<CookieSessionStrategy> {
        let account = AccountKey(namespace: "flask-cookies", account: username)
        let strategy = container.cookieSessionStrategy(
            for: account, allowedHosts: AllowedHosts(origin: peer.base), login: .init(url: peer.url("login")),
            csrf: .init(cookieName: "csrf_access_token", headerName: csrfHeader), refresh: refresh(peer))
        let client = container.makeClient(for: account, strategy: strategy)
        try await client.signIn(try await strategy.signIn(username: username, password: InteropFlaskJWTTests.password))
        return client
    }
}

/// The `/api/notes` answer: who posted, and the JSON body echoed.
private struct Note: Codable, Equatable {
    struct Body: Codable, Equatable { let n: Int }
    let username: String
    let note: Body?

    static let json: HTTPFields = [.contentType: "application/json"]
    static func body(_ n: Int) -> Data { Data(#"{"n":\#(n)}"#.utf8) }
}
