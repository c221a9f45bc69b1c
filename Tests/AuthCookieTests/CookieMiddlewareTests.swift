// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Foundation
import HTTPTypes
import Synchronization
import Testing
@testable import AuthCookie

/// A transport for two origins: `a.example.com` sets a cookie and redirects to `b.example.net`,
/// which sets its own; every request is recorded.
final class TwoOriginServer: Sendable {
    let requests = Mutex<[AuthRequest]>([])

    var transport: ClosureTransport {
        ClosureTransport { [self] request in
            requests.withLock { $0.append(request) }
            var fields = HTTPFields()
            switch request.head.authority {
            case "a.example.com":
                fields[.location] = "https://b.example.net/land"
                fields.append(HTTPField(name: .setCookie, value: "hopA=1; Path=/; Max-Age=600"))
                return AuthResponse(status: .found, headerFields: fields)
            default:
                fields.append(HTTPField(name: .setCookie, value: "hopB=2; Max-Age=600"))
                fields.append(HTTPField(name: .setCookie, value: "bad; Domain=example.com"))
                return AuthResponse(status: .ok, headerFields: fields)
            }
        }
    }

    /// The `Cookie` header each recorded request carried.
    var cookieHeaders: [String?] { requests.withLock { $0.map { $0.head.headerFields[.cookie] } } }
}

/// Follows redirects outside the cookie middleware, as the real pipeline orders them, dropping
/// the caller's headers on a cross-origin hop.
func sendFollowingRedirects(_ request: AuthRequest, through middleware: CookieMiddleware, to transport: any Transport) async throws -> AuthResponse {
    var request = request
    for _ in 0..<5 {
        let response = try await middleware.intercept(request, next: { try await transport.send($0) })
        guard response.status.kind == .redirection,
              let location = response.head.headerFields[.location], let next = URL(string: location)
        else { return response }
        request = try AuthRequest(method: .get, url: next)
    }
    throw AuthError(code: .redirect, message: "too many redirects")
}

/// A credential store in memory that is unavailable (reads and writes throw) while `isDown`.
final class UnavailableStore: CredentialStore {
    let isDown = Mutex(true)
    private let records = InMemoryCredentialStore()

    private func available() throws {
        if isDown.withLock({ $0 }) { throw CredentialStoreError.unavailable("locked") }
    }

    func get(_ key: CredentialKey) async throws -> Envelope? { try available(); return try await records.get(key) }
    func put(_ envelope: Envelope, for key: CredentialKey) async throws { try available(); try await records.put(envelope, for: key) }
    func delete(_ key: CredentialKey) async throws { try available(); try await records.delete(key) }
    func items(of account: AccountKey) async throws -> [String] { try await records.items(of: account) }
    func accounts(in namespace: String) async throws -> [String] { try await records.accounts(in: namespace) }
    func namespaces() async throws -> [String] { try await records.namespaces() }
    func deleteAccount(_ account: AccountKey) async throws { try available(); try await records.deleteAccount(account) }
    func deleteAll() async throws { try available(); try await records.deleteAll() }
}

@Suite struct CookieMiddlewareTests {
    let clock = TestClock()
    let start = url("https://a.example.com/start")

    /// A redirect from https to http strips the request's cookies, and the jar does not put them
    /// back: a session cookie without `Secure` is the session's credential, and it would go out in
    /// the clear (so would every later hop of the chain). A request sent to http directly gets
    /// the jar's non-`Secure` cookies, as in a browser.
    @Test func aRedirectFromHTTPSToHTTPCarriesNoCookieOfTheJar() async throws {
        let jar = CookieJar()
        jar.setCookies(fromHeaderValues: ["sid=s3ss1on; Path=/; HttpOnly"], for: URL(string: "https://app.example.com/")!)
        let sent = Mutex<[AuthRequest]>([])
        let client = AuthClient(transport: ClosureTransport { request in
            sent.withLock { $0.append(request) }
            guard request.head.scheme == "https" else { return AuthResponse(status: request.head.path == "/x" ? .found : .ok, headerFields: [.location: "/y"]) }
            return AuthResponse(status: .found, headerFields: [.location: "http://app.example.com/x"])
        }, middlewares: [RedirectMiddleware(), CookieMiddleware(jar: jar)])
        _ = try await client.send(.get, URL(string: "https://app.example.com/start")!)
        #expect(sent.withLock { $0.map(\.head.path) } == ["/start", "/x", "/y"])
        #expect(sent.withLock { $0.map { $0.head.headerFields[.cookie] } } == ["sid=s3ss1on", nil, nil])
        _ = try await client.send(.get, URL(string: "http://app.example.com/y")!)
        #expect(sent.withLock { $0.last?.head.headerFields[.cookie] } == "sid=s3ss1on")
    }

    @Test func storesCookiesPerHopOriginAndSendsThemBack() async throws {
        let server = TwoOriginServer()
        let jar = CookieJar(now: clock.now)
        let middleware = CookieMiddleware(jar: jar)

        let first = try await sendFollowingRedirects(try AuthRequest(method: .get, url: start), through: middleware, to: server.transport)
        #expect(first.status == .ok)
        #expect(server.cookieHeaders == [nil, nil])
        let byName = Dictionary(uniqueKeysWithValues: jar.allCookies.map { ($0.name, $0.domain) })
        #expect(byName == ["hopA": "a.example.com", "hopB": "b.example.net"])

        _ = try await sendFollowingRedirects(try AuthRequest(method: .get, url: start), through: middleware, to: server.transport)
        #expect(server.cookieHeaders.suffix(2) == ["hopA=1", "hopB=2"])
    }

    /// Issue 51, found against Flask-Login: a request that left with the old session came back
    /// after the re-login with a login redirect that sets an anonymous session cookie, and
    /// signed the account out again (a third login for one session end).
    @Test func aLateAnswerDoesNotUndoACookieChangedWhileItsRequestWasOnTheWire() async throws {
        let jar = CookieJar(now: clock.now)
        jar.setCookies(fromHeaderValues: ["session=old; Path=/"], for: start)
        let middleware = CookieMiddleware(jar: jar)
        let late = ClosureTransport { _ in
            jar.setCookies(fromHeaderValues: ["session=new; Path=/"], for: self.start)  // a sign-in meanwhile
            var fields = HTTPFields()
            fields.append(HTTPField(name: .setCookie, value: "session=anonymous; Path=/"))
            fields.append(HTTPField(name: .setCookie, value: "flash=1; Path=/"))
            return AuthResponse(status: .found, headerFields: fields)
        }
        _ = try await middleware.intercept(try AuthRequest(method: .get, url: start), next: { try await late.send($0) })
        #expect(jar.cookies(for: start).map { "\($0.name)=\($0.value)" }.sorted() == ["flash=1", "session=new"])

        // An answer to a request that carried the current value replaces it as usual.
        let current = ClosureTransport { _ in
            AuthResponse(status: .ok, headerFields: [.setCookie: "session=rotated; Path=/"])
        }
        _ = try await middleware.intercept(try AuthRequest(method: .get, url: start), next: { try await current.send($0) })
        #expect(jar.cookies(for: start).first { $0.name == "session" }?.value == "rotated")
    }

    /// A value the caller put in its own `Cookie` header is not the jar's: an answer that sets
    /// that cookie replaces the jar's value as usual (only the jar's own cookies can be overtaken).
    @Test func aCallersOwnCookieValueDoesNotMakeTheAnswerLate() async throws {
        let jar = CookieJar(now: clock.now)
        jar.setCookies(fromHeaderValues: ["session=fromJar; Path=/", "other=jar; Path=/"], for: start)
        let middleware = CookieMiddleware(jar: jar)
        let answer = ClosureTransport { _ in AuthResponse(status: .ok, headerFields: [.setCookie: "session=new; Path=/"]) }
        let request = try AuthRequest(method: .get, url: start, headerFields: [.cookie: "session=fromCaller"])
        _ = try await middleware.intercept(request, next: { try await answer.send($0) })
        #expect(jar.cookies(for: start).first { $0.name == "session" }?.value == "new")
    }

    @Test func callerCookieHeaderIsKeptAndWinsOnNames() async throws {
        let server = TwoOriginServer()
        let jar = CookieJar(now: clock.now)
        jar.setCookies(fromHeaderValues: ["hopA=fromJar", "other=jar"], for: start)
        let middleware = CookieMiddleware(jar: jar)
        var fields = HTTPFields()
        fields[.cookie] = "hopA=fromCaller; mine=1"
        let request = try AuthRequest(method: .get, url: start, headerFields: fields)
        _ = try await middleware.intercept(request, next: { try await server.transport.send($0) })
        #expect(server.cookieHeaders == ["hopA=fromCaller; mine=1; other=jar"])
    }

    @Test func savesTheJarAfterAChangeOnly() async throws {
        let server = TwoOriginServer()
        let store = InMemoryCredentialStore()
        let account = AccountKey(namespace: "web", account: "alice")
        let jarStore = CookieJarStore(store: store, account: account, now: clock.now)
        let middleware = CookieMiddleware(jar: CookieJar(now: clock.now), store: jarStore)

        _ = try await sendFollowingRedirects(try AuthRequest(method: .get, url: start), through: middleware, to: server.transport)
        let saved = try #require(try await store.get(jarStore.key))
        let reloaded = try await jarStore.loadJar(now: clock.now)
        #expect(reloaded.cookieHeader(for: url("https://b.example.net/")) == "hopB=2")

        // Same cookies again: the jar does not change, so nothing is written.
        clock.advance(by: 5)
        let request = try AuthRequest(method: .get, url: url("https://b.example.net/land"))
        let unchanged = CookieMiddleware(jar: reloaded, store: jarStore)
        _ = try await unchanged.intercept(request, next: { _ in AuthResponse(status: .ok) })
        #expect(try await store.get(jarStore.key) == saved)
    }

    @Test func aFailedSaveDoesNotFailTheRequest() async throws {
        let failures = Mutex(0)
        let jarStore = CookieJarStore(store: UnavailableStore(), account: AccountKey(namespace: "web", account: "bob"))
        let middleware = CookieMiddleware(jar: CookieJar(now: clock.now), store: jarStore) { _ in
            failures.withLock { $0 += 1 }
        }
        let response = try await sendFollowingRedirects(try AuthRequest(method: .get, url: start), through: middleware, to: TwoOriginServer().transport)
        #expect(response.status == .ok)
        #expect(failures.withLock { $0 } == 2)
        #expect(middleware.jar.count == 2)
    }

    /// An answer updates the cookie the request carried, told apart from another of the same
    /// name by its domain and path: with a domain cookie `sid` and a host-only `sid` both sent,
    /// a new value of the host-only one is kept. Before the fix the check compared by name
    /// only, took the domain cookie's value as the one sent, and refused every update of the
    /// host-only cookie as overtaken.
    @Test func anAnswerUpdatesTheCookieItCarriedAmongTwoOfTheSameName() async throws {
        let jar = CookieJar(now: clock.now)
        let app = url("https://app.example.com/")
        try jar.setCookie(fromHeaderValue: "sid=parent; Domain=example.com; Path=/; Max-Age=600", for: app)
        clock.advance(by: 1)
        try jar.setCookie(fromHeaderValue: "sid=host; Path=/; Max-Age=600", for: app)
        let middleware = CookieMiddleware(jar: jar)
        let sent = Mutex<String?>(nil)
        _ = try await middleware.intercept(try AuthRequest(method: .get, url: url("https://app.example.com/me"))) { request in
            sent.withLock { $0 = request.head.headerFields[.cookie] }
            return AuthResponse(status: .ok, headerFields: [.setCookie: "sid=host-2; Path=/; Max-Age=600"])
        }
        #expect(sent.withLock { $0 } == "sid=parent; sid=host")
        #expect(jar.cookies(for: url("https://app.example.com/")).map(\.value) == ["parent", "host-2"])
    }

    /// A save the store refused is made again by the next request, though its answer changes
    /// nothing: a rotated session cookie is not lost to a store that was briefly unavailable.
    /// Before the fix only a later change of the jar saved it.
    @Test func aSaveTheStoreRefusedIsMadeByTheNextRequest() async throws {
        let store = UnavailableStore()
        let jarStore = CookieJarStore(store: store, account: AccountKey(namespace: "web", account: "bob"))
        let failures = Mutex(0)
        let middleware = CookieMiddleware(jar: CookieJar(now: clock.now), store: jarStore) { _ in
            failures.withLock { $0 += 1 }
        }
        _ = try await sendFollowingRedirects(try AuthRequest(method: .get, url: start), through: middleware, to: TwoOriginServer().transport)
        #expect(failures.withLock { $0 } == 2)
        store.isDown.withLock { $0 = false }
        _ = try await middleware.intercept(try AuthRequest(method: .get, url: url("https://b.example.net/land")), next: { _ in AuthResponse(status: .ok) })
        #expect(try await jarStore.loadJar(now: clock.now).count == 2)
        #expect(failures.withLock { $0 } == 2)
    }
}
