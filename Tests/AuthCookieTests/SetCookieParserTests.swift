// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing
@testable import AuthCookie

@Suite struct SetCookieParserTests {
    @Test func nameValueAndFlags() throws {
        let parsed = try #require(SetCookie(parsing: " sid = a b ; Secure; HttpOnly; SameSite=Strict; Fancy=1"))
        #expect(parsed.name == "sid")
        #expect(parsed.value == "a b")
        #expect(parsed.isSecure && parsed.isHTTPOnly)
        #expect(parsed.sameSite == .strict)
    }

    @Test func maxAgeWinsOverExpiresAndNonNumericIsIgnored() throws {
        let clock = TestClock()
        let jar = CookieJar(now: clock.now)
        let origin = url("http://example.com/")
        // Max-Age (60 s) beats a far-future Expires, whatever their order.
        jar.setCookies(fromHeaderValues: [
            "a=1; Max-Age=60; Expires=Fri, 01 Jan 9999 00:00:00 GMT",
            "b=2; Expires=Fri, 01 Jan 9999 00:00:00 GMT; Max-Age=60",
            "c=3; Max-Age=abc",          // ignored: session cookie
            "d=4; Max-Age=60; Max-Age=1x", // the bad one is ignored, 60 stays
        ], for: origin)
        let byName = Dictionary(uniqueKeysWithValues: jar.allCookies.map { ($0.name, $0) })
        #expect(byName["a"]?.expiresAt == clock.date.addingTimeInterval(60))
        #expect(byName["b"]?.expiresAt == clock.date.addingTimeInterval(60))
        #expect(byName["c"]?.expiresAt == nil)
        #expect(byName["d"]?.expiresAt == clock.date.addingTimeInterval(60))
        clock.advance(by: 61)
        #expect(pairs(jar.cookieHeader(for: origin)) == ["c=3"])
    }

    @Test func maxAgeZeroOrNegativeExpiresNow() throws {
        #expect(SetCookie(parsing: "a=1; Max-Age=-5")?.maxAge == -5)
        #expect(SetCookie(parsing: "a=1; Max-Age=99999999999999999999999")?.maxAge == .max)
        #expect(SetCookie(parsing: "a=1; Max-Age=-")?.maxAge == nil)
        let jar = CookieJar(now: TestClock().now)
        let origin = url("http://example.com/")
        jar.setCookies(fromHeaderValues: ["a=1", "b=2"], for: origin)
        jar.setCookies(fromHeaderValues: ["a=gone; Max-Age=0", "b=gone; Max-Age=-1"], for: origin)
        #expect(jar.cookieHeader(for: origin) == nil)
        #expect(jar.count == 0)
    }

    @Test func domainDropsLeadingDotAndIsLowerCased() {
        #expect(SetCookie(parsing: "a=1; Domain=.Example.COM")?.domain == "example.com")
        #expect(SetCookie(parsing: "a=1; Domain=example.com; Domain=")?.domain == "example.com")
    }

    @Test func pathNotStartingWithSlashUsesTheDefaultPath() throws {
        #expect(SetCookie(parsing: "a=1; Path=/x")?.path == "/x")
        #expect(SetCookie(parsing: "a=1; Path=x")?.path == nil)
        #expect(SetCookie(parsing: "a=1; Path=/x; Path=")?.path == nil)
        let jar = CookieJar(now: TestClock().now)
        jar.setCookies(fromHeaderValues: ["a=1; Path=relative", "b=2"], for: url("http://example.com/docs/page"))
        #expect(jar.allCookies.map(\.path) == ["/docs", "/docs"])
    }

    @Test(arguments: [("Strict", SameSite.strict), ("lax", .lax), ("NONE", .none)])
    func sameSiteKnownValues(_ text: String, _ expected: SameSite) {
        #expect(SetCookie(parsing: "a=1; SameSite=\(text)")?.sameSite == expected)
    }

    @Test func sameSiteUnknownValueIsUnset() {
        #expect(SetCookie(parsing: "a=1; SameSite=Sometimes")?.sameSite == nil)
        #expect(SetCookie(parsing: "a=1; SameSite=Lax; SameSite=bogus")?.sameSite == nil)
        #expect(SetCookie(parsing: "a=1")?.sameSite == nil)
    }

    @Test func controlCharactersRejectTheWholeValue() {
        #expect(SetCookie(parsing: "AAA=BB\rZYX") == nil)
        #expect(SetCookie(parsing: "a=b\nSet-Cookie: c=d") == nil)
        #expect(SetCookie(parsing: "a=b\u{0}") == nil)
        #expect(SetCookie(parsing: "a=b\tc")?.value == "b\tc")
    }

    @Test(arguments: ["", "novalue", "=value", " =x", ";a=b", "  ;  "])
    func valuesWithoutANameAreIgnored(_ header: String) {
        #expect(SetCookie(parsing: header) == nil)
    }
}
