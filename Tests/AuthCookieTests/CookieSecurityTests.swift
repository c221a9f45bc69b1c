// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing
@testable import AuthCookie

@Suite struct CookieSecurityTests {
    let clock = TestClock()

    @Test func secureCookieIsNotSentOverHTTP() throws {
        let jar = CookieJar(now: clock.now)
        try jar.setCookie(fromHeaderValue: "sid=s3cret; Secure", for: url("https://example.com/"))
        jar.setCookies(fromHeaderValues: ["plain=1"], for: url("https://example.com/"))
        #expect(pairs(jar.cookieHeader(for: url("https://example.com/a"))) == ["sid=s3cret", "plain=1"])
        #expect(pairs(jar.cookieHeader(for: url("http://example.com/a"))) == ["plain=1"])
        #expect(pairs(jar.cookieHeader(for: url("wss://example.com/socket"))) == ["sid=s3cret", "plain=1"])
    }

    @Test func secureCookieFromAnInsecureOriginIsRejected() {
        let jar = CookieJar(now: clock.now)
        #expect(throws: CookieError.self) {
            try jar.setCookie(fromHeaderValue: "sid=1; Secure", for: url("http://example.com/"))
        }
        #expect(jar.count == 0)
        let lenient = CookieJar(configuration: .init(acceptsSecureCookiesFromInsecureOrigins: true), now: clock.now)
        lenient.setCookies(fromHeaderValues: ["sid=1; Secure"], for: url("http://example.com/"))
        #expect(lenient.cookieHeader(for: url("http://example.com/")) == nil)
        #expect(lenient.cookieHeader(for: url("https://example.com/")) == "sid=1")
    }

    @Test func loopbackCountsAsSecureUnlessConfiguredOtherwise() {
        let strict = CookieJar(configuration: .init(treatsLoopbackAsSecure: false), now: clock.now)
        #expect(strict.setCookies(fromHeaderValues: ["sid=1; Secure"], for: url("http://127.0.0.1:8080/")) == 0)
        let loopback = CookieJar(now: clock.now)  // the default, as in browsers
        loopback.setCookies(fromHeaderValues: ["sid=1; Secure"], for: url("http://localhost:8080/"))
        #expect(loopback.cookieHeader(for: url("http://localhost:9090/")) == "sid=1")
        #expect(loopback.setCookies(fromHeaderValues: ["sid=1; Secure"], for: url("http://example.com/")) == 0)
    }

    @Test func hostOnlyCookieStaysOnItsHost() {
        let jar = CookieJar(now: clock.now)
        jar.setCookies(fromHeaderValues: ["a=1"], for: url("https://app.example.com/"))
        #expect(jar.cookieHeader(for: url("https://app.example.com/x")) == "a=1")
        #expect(jar.cookieHeader(for: url("https://other.example.com/")) == nil)
        #expect(jar.cookieHeader(for: url("https://sub.app.example.com/")) == nil)
        #expect(jar.cookieHeader(for: url("https://example.com/")) == nil)
        #expect(jar.cookieHeader(for: url("https://evil.com/")) == nil)
        #expect(jar.cookieHeader(for: url("https://APP.Example.com/")) == "a=1")
    }

    @Test func domainCookieReachesSubdomainsOnly() throws {
        let jar = CookieJar(now: clock.now)
        try jar.setCookie(fromHeaderValue: "d=1; Domain=example.com", for: url("https://app.example.com/"))
        #expect(jar.cookieHeader(for: url("https://example.com/")) == "d=1")
        #expect(jar.cookieHeader(for: url("https://deep.api.example.com/")) == "d=1")
        #expect(jar.cookieHeader(for: url("https://notexample.com/")) == nil)
        #expect(jar.cookieHeader(for: url("https://example.com.evil.net/")) == nil)
    }

    @Test func foreignDomainIsRejected() {
        let jar = CookieJar(now: clock.now)
        #expect(throws: CookieError.self) {
            try jar.setCookie(fromHeaderValue: "d=1; Domain=other.com", for: url("https://example.com/"))
        }
        #expect(throws: CookieError.self) {
            try jar.setCookie(fromHeaderValue: "d=1; Domain=app.example.com", for: url("https://example.com/"))
        }
        #expect(jar.count == 0)
    }

    @Test(arguments: [
        ("com", "https://www.example.com/"), ("co.uk", "https://shop.example.co.uk/"),
        ("org.uk", "https://www.charity.org.uk/"), ("github.io", "https://me.github.io/"),
        ("herokuapp.com", "https://app.herokuapp.com/"), ("uk", "https://www.example.co.uk/"),
    ])
    func publicSuffixDomainsAreRejected(_ domain: String, _ origin: String) throws {
        let jar = CookieJar(now: clock.now)
        do {
            try jar.setCookie(fromHeaderValue: "tracker=1; Domain=\(domain)", for: url(origin))
            Issue.record("a cookie for \(domain) was accepted")
        } catch {
            #expect(error.code == .publicSuffix)
        }
        #expect(jar.count == 0)
        #expect(jar.cookieHeader(for: url("https://victim.\(domain)/")) == nil)
    }

    @Test func publicSuffixEqualToTheHostBecomesHostOnly() throws {
        let jar = CookieJar(now: clock.now)
        let cookie = try jar.setCookie(fromHeaderValue: "a=1; Domain=github.io", for: url("https://github.io/"))
        #expect(cookie.isHostOnly && cookie.domain == "github.io")
        #expect(jar.cookieHeader(for: url("https://github.io/")) == "a=1")
        #expect(jar.cookieHeader(for: url("https://someone.github.io/")) == nil)
        // A registrable domain under a public suffix is fine.
        try jar.setCookie(fromHeaderValue: "b=2; Domain=example.co.uk", for: url("https://www.example.co.uk/"))
        #expect(jar.cookieHeader(for: url("https://shop.example.co.uk/")) == "b=2")
    }

    @Test func customPublicSuffixesAreHonoured() throws {
        let suffixes = try PublicSuffixList.builtIn.adding(["platform.test"])
        let jar = CookieJar(configuration: .init(publicSuffixes: suffixes), now: clock.now)
        #expect(jar.setCookies(fromHeaderValues: ["a=1; Domain=platform.test"], for: url("https://me.platform.test/")) == 0)
    }

    @Test func ipv4AddressesAreExactOnly() throws {
        let jar = CookieJar(now: clock.now)
        try jar.setCookie(fromHeaderValue: "a=1", for: url("http://192.168.1.10:8080/"))
        let withDomain = try jar.setCookie(fromHeaderValue: "b=2; Domain=192.168.1.10", for: url("http://192.168.1.10/"))
        #expect(withDomain.isHostOnly)
        #expect(pairs(jar.cookieHeader(for: url("http://192.168.1.10/"))) == ["a=1", "b=2"])
        #expect(jar.cookieHeader(for: url("http://192.168.1.11/")) == nil)
        #expect(jar.cookieHeader(for: url("http://10.192.168.1.10/")) == nil)
        for domain in ["168.1.10", "1.10", "10"] {
            #expect(throws: CookieError.self) {
                try jar.setCookie(fromHeaderValue: "c=3; Domain=\(domain)", for: url("http://192.168.1.10/"))
            }
        }
    }

    @Test func ipv6AddressesAreExactOnly() throws {
        let jar = CookieJar(now: clock.now)
        try jar.setCookie(fromHeaderValue: "a=1", for: url("http://[::1]:8080/"))
        try jar.setCookie(fromHeaderValue: "b=2; Domain=[::1]", for: url("http://[::1]/"))
        #expect(jar.allCookies.allSatisfy { $0.domain == "::1" && $0.isHostOnly })
        #expect(pairs(jar.cookieHeader(for: url("http://[::1]:9000/"))) == ["a=1", "b=2"])
        #expect(jar.cookieHeader(for: url("http://[::2]/")) == nil)
        #expect(throws: CookieError.self) {
            try jar.setCookie(fromHeaderValue: "c=3; Domain=::2", for: url("http://[::1]/"))
        }
    }
}
