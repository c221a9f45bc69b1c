// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing
@testable import AuthCookie

/// Cookie name prefixes (RFC 6265bis §4.1.3, §5.7 storage steps): a `__Secure-` cookie needs
/// `Secure` and a secure origin; a `__Host-` cookie also needs no `Domain` and `Path=/`.
/// Both prefixes match case-insensitively.
@Suite struct CookiePrefixTests {
    let clock = TestClock()
    let https = url("https://app.example.com/login/form")
    let http = url("http://app.example.com/login/form")

    @Test(arguments: ["__Secure-", "__secure-", "__SECURE-", "__sEcUrE-"])
    func securePrefixNeedsTheSecureAttribute(_ prefix: String) throws {
        let jar = CookieJar(now: clock.now)
        let error = rejection(of: "\(prefix)plain=v1; Path=/", from: https, in: jar)
        #expect(error?.code == .invalidPrefix)
        try jar.setCookie(fromHeaderValue: "\(prefix)sid=v2; Secure; Path=/", for: https)
        #expect(jar.cookieHeader(for: url("https://app.example.com/")) == "\(prefix)sid=v2")
    }

    @Test func securePrefixNeedsASecureOriginEvenWhenSecureCookiesAreAcceptedOverHTTP() {
        // The default jar refuses any Secure cookie from http; the lenient one accepts plain
        // Secure cookies from http but never a prefixed one.
        let strict = CookieJar(now: clock.now)
        #expect(rejection(of: "__Secure-sid=1; Secure; Path=/", from: http, in: strict) != nil)
        let lenient = CookieJar(configuration: .init(acceptsSecureCookiesFromInsecureOrigins: true), now: clock.now)
        let error = rejection(of: "__Secure-sid=1; Secure; Path=/", from: http, in: lenient)
        #expect(error?.code == .invalidPrefix)
        #expect(rejection(of: "legacy=1; Secure; Path=/", from: http, in: lenient) == nil)
        #expect(lenient.cookieHeader(for: url("https://app.example.com/")) == "legacy=1")
    }

    @Test(arguments: ["__Host-", "__host-", "__HOST-", "__hOsT-"])
    func hostPrefixIsAcceptedWithSecureNoDomainAndRootPath(_ prefix: String) throws {
        let jar = CookieJar(now: clock.now)
        let cookie = try jar.setCookie(fromHeaderValue: "\(prefix)sid=v1; Secure; Path=/; HttpOnly", for: https)
        #expect(cookie.isHostOnly && cookie.path == "/" && cookie.domain == "app.example.com")
        #expect(jar.cookieHeader(for: url("https://app.example.com/anything")) == "\(prefix)sid=v1")
        #expect(jar.cookieHeader(for: url("https://sub.app.example.com/")) == nil)
        #expect(jar.cookieHeader(for: url("https://example.com/")) == nil)
    }

    @Test(arguments: [
        "sid=1; Path=/",                                  // no Secure
        "sid=1; Secure",                                  // no Path (the default path would be /login)
        "sid=1; Secure; Path=/login",                     // a path other than /
        "sid=1; Secure; Path=/; Path=/login",             // the last Path wins and is not /
        "sid=1; Secure; Path=relative",                   // an invalid Path is not Path=/
        "sid=1; Secure; Path=/; Domain=example.com",      // a domain cookie
        "sid=1; Secure; Path=/; Domain=app.example.com",  // Domain, even one equal to the host
    ])
    func hostPrefixRejectsEverythingElse(_ attributes: String) {
        for prefix in ["__Host-", "__host-", "__HOST-"] {
            let jar = CookieJar(now: clock.now)
            let error = rejection(of: prefix + attributes, from: https, in: jar)
            #expect(error?.code == .invalidPrefix, "\(prefix)\(attributes)")
            #expect(jar.count == 0)
            #expect(jar.cookieHeader(for: url("https://app.example.com/login/x")) == nil)
            #expect(jar.cookieHeader(for: url("https://example.com/")) == nil)
        }
    }

    @Test func hostPrefixNeedsASecureOrigin() {
        let lenient = CookieJar(configuration: .init(acceptsSecureCookiesFromInsecureOrigins: true), now: clock.now)
        let error = rejection(of: "__Host-sid=1; Secure; Path=/", from: http, in: lenient)
        #expect(error?.code == .invalidPrefix)
        #expect(lenient.count == 0)
    }

    @Test func loopbackCountsAsASecureOriginForPrefixesUnlessConfiguredOtherwise() {
        let local = url("http://localhost:8080/login")
        let strict = CookieJar(configuration: .init(treatsLoopbackAsSecure: false), now: clock.now)
        #expect(rejection(of: "__Host-dev=1; Secure; Path=/", from: local, in: strict) != nil)
        #expect(strict.count == 0)

        let loopback = CookieJar(now: clock.now)  // the default, as in browsers
        #expect(rejection(of: "__Host-dev=1; Secure; Path=/", from: local, in: loopback) == nil)
        #expect(rejection(of: "__Secure-dev=2; Secure; Path=/", from: url("http://127.0.0.1:9/"), in: loopback) == nil)
        #expect(loopback.cookieHeader(for: url("http://localhost:9090/")) == "__Host-dev=1")
        #expect(loopback.cookieHeader(for: url("http://127.0.0.1/")) == "__Secure-dev=2")
        // The loopback exception does not extend to other hosts.
        #expect(rejection(of: "__Host-dev=1; Secure; Path=/", from: url("http://example.com/"), in: loopback) != nil)
    }

    @Test(arguments: ["__Host", "__Hostsid", "x__Host-sid", "_Host-sid", "__Secure", "__Securesid", "a__Secure-sid"])
    func namesThatOnlyResembleAPrefixAreOrdinary(_ name: String) {
        let jar = CookieJar(now: clock.now)
        #expect(rejection(of: "\(name)=1; Domain=example.com; Path=/login", from: http, in: jar) == nil)
        #expect(jar.cookieHeader(for: url("http://www.example.com/login")) == "\(name)=1")
    }

    @Test func prefixRejectionNamesTheRuleAndNotTheValue() throws {
        let jar = CookieJar(now: clock.now)
        let secure = try #require(rejection(of: "__Secure-sid=topsecret-1; Path=/", from: https, in: jar))
        let host = try #require(rejection(of: "__Host-sid=topsecret-2; Secure; Path=/; Domain=example.com", from: https, in: jar))
        #expect(secure.message.contains("__Secure-"))
        #expect(host.message.contains("__Host-"))
        for error in [secure, host] {
            #expect(!error.description.contains("topsecret"))
            #expect(!error.message.contains("topsecret"))
        }
    }
}
