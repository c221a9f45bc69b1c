// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing
@testable import AuthCookie

/// "Leave secure cookies alone" (RFC 6265bis §5.7 storage model): a response from an insecure
/// origin cannot overwrite, shadow on a deeper path or from a related domain, nor delete, a
/// `Secure` cookie of the same name.
@Suite struct SecureCookieProtectionTests {
    let clock = TestClock()
    let secureOrigin = url("https://example.com/")
    let insecureOrigin = url("http://example.com/")

    func jarWithSecureSession(_ header: String = "sid=good; Secure; Path=/", configuration: CookieJarConfiguration = .init()) throws -> CookieJar {
        let jar = CookieJar(configuration: configuration, now: clock.now)
        try jar.setCookie(fromHeaderValue: header, for: secureOrigin)
        return jar
    }

    @Test func httpCannotOverwriteASecureCookie() throws {
        let jar = try jarWithSecureSession()
        let generation = jar.generation
        let error = rejection(of: "sid=evil; Path=/", from: insecureOrigin, in: jar)
        #expect(error?.code == .shadowsSecureCookie)
        #expect(jar.setCookies(fromHeaderValues: ["sid=evil; Path=/; HttpOnly"], for: insecureOrigin) == 0)
        #expect(jar.cookieHeader(for: url("https://example.com/")) == "sid=good")
        #expect(jar.cookieHeader(for: url("http://example.com/")) == nil)
        #expect(jar.generation == generation)
    }

    @Test func httpCannotShadowASecureCookieOnADeeperPath() throws {
        let jar = try jarWithSecureSession()
        let error = rejection(of: "sid=evil; Path=/account", from: insecureOrigin, in: jar)
        #expect(error?.code == .shadowsSecureCookie)
        // Without a Path attribute the default path of /account/settings is /account: also a shadow.
        #expect(jar.setCookies(fromHeaderValues: ["sid=evil"], for: url("http://example.com/account/settings")) == 0)
        #expect(jar.cookieHeader(for: url("https://example.com/account/settings")) == "sid=good")
        #expect(jar.count == 1)
    }

    @Test func httpCannotShadowFromARelatedDomain() throws {
        // A host-only Secure cookie of www.example.com; http sets the name for example.com.
        let host = CookieJar(now: clock.now)
        try host.setCookie(fromHeaderValue: "sid=good; Secure; Path=/", for: url("https://www.example.com/"))
        #expect(host.setCookies(fromHeaderValues: ["sid=evil; Domain=example.com; Path=/"], for: url("http://www.example.com/")) == 0)
        #expect(host.setCookies(fromHeaderValues: ["sid=evil; Domain=example.com; Path=/"], for: url("http://api.example.com/")) == 0)
        #expect(host.cookieHeader(for: url("https://www.example.com/")) == "sid=good")

        // A Secure domain cookie of example.com; http sets the name host-only on a subdomain.
        let domain = CookieJar(now: clock.now)
        try domain.setCookie(fromHeaderValue: "sid=good; Secure; Domain=example.com; Path=/", for: secureOrigin)
        #expect(domain.setCookies(fromHeaderValues: ["sid=evil; Path=/"], for: url("http://sub.example.com/")) == 0)
        #expect(domain.setCookies(fromHeaderValues: ["sid=evil; Path=/"], for: url("http://deep.sub.example.com/")) == 0)
        #expect(domain.cookieHeader(for: url("https://sub.example.com/")) == "sid=good")
        #expect(domain.count == 1)
    }

    @Test(arguments: [
        "sid=; Path=/; Max-Age=0",
        "sid=; Path=/; Max-Age=-1",
        "sid=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT",
    ])
    func httpCannotDeleteASecureCookie(_ deletion: String) throws {
        let jar = try jarWithSecureSession()
        let error = rejection(of: deletion, from: insecureOrigin, in: jar)
        #expect(error?.code == .shadowsSecureCookie)
        #expect(jar.count == 1)
        #expect(jar.cookieHeader(for: secureOrigin) == "sid=good")
    }

    @Test func aSecureOriginStillReplacesAndDeletes() throws {
        let jar = try jarWithSecureSession()
        try jar.setCookie(fromHeaderValue: "sid=better; Secure; Path=/", for: secureOrigin)
        #expect(jar.cookieHeader(for: secureOrigin) == "sid=better")
        // A non-Secure replacement from https is allowed (the draft only restricts insecure origins).
        try jar.setCookie(fromHeaderValue: "sid=plain; Path=/", for: secureOrigin)
        #expect(jar.cookieHeader(for: insecureOrigin) == "sid=plain")
        try jar.setCookie(fromHeaderValue: "sid=good; Secure; Path=/", for: secureOrigin)
        try jar.setCookie(fromHeaderValue: "sid=; Path=/; Max-Age=0", for: secureOrigin)
        #expect(jar.count == 0)
    }

    @Test func unrelatedCookiesFromHTTPAreStillStored() throws {
        let jar = try jarWithSecureSession("sid=good; Secure; Path=/account")
        // Another name, a shallower path (it does not path-match /account), another site.
        #expect(rejection(of: "theme=dark; Path=/", from: insecureOrigin, in: jar) == nil)
        #expect(rejection(of: "sid=plain; Path=/", from: insecureOrigin, in: jar) == nil)
        #expect(rejection(of: "sid=plain; Path=/accounting", from: insecureOrigin, in: jar) == nil)
        #expect(rejection(of: "sid=other; Path=/account", from: url("http://example.org/"), in: jar) == nil)
        #expect(rejection(of: "sid=other; Path=/account", from: url("http://notexample.com/"), in: jar) == nil)
        #expect(pairs(jar.cookieHeader(for: url("https://example.com/account"))) == ["sid=good", "theme=dark", "sid=plain"])
        #expect(pairs(jar.cookieHeader(for: url("http://example.com/account"))) == ["theme=dark", "sid=plain"])
    }

    @Test func anExpiredSecureCookieNoLongerProtectsItsName() throws {
        let jar = try jarWithSecureSession("sid=good; Secure; Path=/; Max-Age=60")
        #expect(rejection(of: "sid=plain; Path=/", from: insecureOrigin, in: jar) != nil)
        clock.advance(by: 61)
        #expect(rejection(of: "sid=plain; Path=/", from: insecureOrigin, in: jar) == nil)
        #expect(jar.cookieHeader(for: insecureOrigin) == "sid=plain")
    }

    @Test func theRuleHoldsWhenSecureCookiesAreAcceptedOverHTTP() throws {
        let lenient = CookieJarConfiguration(acceptsSecureCookiesFromInsecureOrigins: true)
        let jar = try jarWithSecureSession(configuration: lenient)
        #expect(rejection(of: "sid=evil; Secure; Path=/", from: insecureOrigin, in: jar) != nil)
        #expect(rejection(of: "sid=evil; Path=/", from: insecureOrigin, in: jar) != nil)
        #expect(jar.cookieHeader(for: secureOrigin) == "sid=good")
    }

    @Test func loopbackTreatedAsSecureMayReplaceItsOwnSecureCookies() throws {
        let local = url("http://localhost:8080/")
        let jar = CookieJar(configuration: .init(treatsLoopbackAsSecure: true), now: clock.now)
        try jar.setCookie(fromHeaderValue: "sid=one; Secure; Path=/", for: local)
        try jar.setCookie(fromHeaderValue: "sid=two; Path=/", for: local)
        #expect(jar.cookieHeader(for: local) == "sid=two")
    }

    @Test func shadowRejectionNamesTheRuleAndNotTheValue() throws {
        let jar = try jarWithSecureSession("sid=topsecret-1; Secure; Path=/")
        let error = try #require(rejection(of: "sid=topsecret-2; Path=/", from: insecureOrigin, in: jar))
        #expect(error.message.contains("sid"))
        #expect(error.message.contains("Secure"))
        #expect(!error.description.contains("topsecret"))
    }
}
