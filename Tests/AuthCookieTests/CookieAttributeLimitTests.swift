// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing
@testable import AuthCookie

/// RFC 6265bis limits on what a server may ask for: attribute values of more than 1,024 bytes
/// are ignored, name plus value may not exceed 4,096 bytes, expiry is capped at 400 days, and
/// `SameSite=None` needs `Secure`.
@Suite struct CookieAttributeLimitTests {
    let clock = TestClock()
    let origin = url("https://example.com/docs/page")
    static let fourHundredDays: TimeInterval = 400 * 86_400

    @Test func anAttributeValueOver1024BytesIsIgnored() throws {
        let longPath = "/" + String(repeating: "p", count: 1_024)       // 1,025 bytes
        let exactPath = "/" + String(repeating: "q", count: 1_023)      // 1,024 bytes
        #expect(SetCookie(parsing: "a=1; Path=\(longPath)")?.path == nil)
        #expect(SetCookie(parsing: "a=1; Path=\(exactPath)")?.path == exactPath)
        // Only the long cookie-av is ignored: an earlier acceptable one stays.
        #expect(SetCookie(parsing: "a=1; Path=/keep; Path=\(longPath)")?.path == "/keep")

        let jar = CookieJar(now: clock.now)
        try jar.setCookie(fromHeaderValue: "a=1; Path=\(longPath)", for: origin)
        #expect(jar.allCookies.map(\.path) == ["/docs"])  // the default path
    }

    @Test func anOverlongDomainIsIgnoredSoTheCookieIsHostOnly() throws {
        let padding = String(repeating: "x", count: 1_020)
        let cookie = try CookieJar(now: clock.now).setCookie(
            fromHeaderValue: "a=1; Domain=\(padding).example.com", for: url("https://www.example.com/"))
        #expect(cookie.isHostOnly && cookie.domain == "www.example.com")
    }

    @Test func overlongMaxAgeExpiresAndSameSiteAreIgnored() throws {
        let jar = CookieJar(now: clock.now)
        let zeros = String(repeating: "0", count: 1_030)
        let junk = String(repeating: "z", count: 1_024)
        jar.setCookies(fromHeaderValues: [
            "m=1; Max-Age=\(zeros)60",                                  // a session cookie
            "e=1; Expires=Wed, 01 Jan 2026 00:00:00 GMT \(junk)",       // a session cookie
            "s=1; SameSite=Strict; SameSite=\(junk)None",
        ], for: origin)
        let byName = Dictionary(uniqueKeysWithValues: jar.allCookies.map { ($0.name, $0) })
        #expect(byName["m"]?.expiresAt == nil)
        #expect(byName["e"]?.expiresAt == nil)
        #expect(byName["s"]?.sameSite == .strict)
        #expect(SetCookie(parsing: "e=1; Expires=Wed, 01 Jan 2026 00:00:00 GMT \(junk.prefix(900))")?.expires != nil)
    }

    @Test func nameAndValueOver4096BytesAreIgnored() throws {
        let jar = CookieJar(now: clock.now)
        let name = String(repeating: "n", count: 4_000)
        #expect(rejection(of: "\(name)=" + String(repeating: "v", count: 97), from: origin, in: jar)?.code == .tooLarge)
        #expect(rejection(of: "\(name)=" + String(repeating: "v", count: 96), from: origin, in: jar) == nil)
        #expect(jar.count == 1)
    }

    @Test func expiryIsCappedAt400Days() throws {
        let jar = CookieJar(now: clock.now)
        jar.setCookies(fromHeaderValues: [
            "maxAge=1; Max-Age=999999999",
            "expires=1; Expires=Fri, 01 Jan 9999 00:00:00 GMT",
            "exact=1; Max-Age=34560000",
            "under=1; Max-Age=34559999",
            "saturated=1; Max-Age=99999999999999999999999",
        ], for: origin)
        let limit = clock.date.addingTimeInterval(Self.fourHundredDays)
        let byName = Dictionary(uniqueKeysWithValues: jar.allCookies.map { ($0.name, $0.expiresAt) })
        #expect(byName == [
            "maxAge": limit, "expires": limit, "exact": limit, "saturated": limit,
            "under": limit.addingTimeInterval(-1),
        ])

        let page = url("https://example.com/docs/")
        clock.advance(by: Self.fourHundredDays - 2)
        #expect(pairs(jar.cookieHeader(for: page)).count == 5)
        clock.advance(by: 1)
        #expect(Set(pairs(jar.cookieHeader(for: page))) == ["maxAge=1", "expires=1", "exact=1", "saturated=1"])
        clock.advance(by: 1)
        #expect(jar.cookieHeader(for: page) == nil)
    }

    @Test func expiryWithin400DaysIsKept() throws {
        let jar = CookieJar(now: clock.now)
        let soon = try jar.setCookie(fromHeaderValue: "a=1; Expires=Wed, 01 Jan 2026 00:00:00 GMT", for: origin)
        #expect(soon.expiresAt == Date(timeIntervalSince1970: 1_767_225_600))
        let hour = try jar.setCookie(fromHeaderValue: "b=1; Max-Age=3600", for: origin)
        #expect(hour.expiresAt == clock.date.addingTimeInterval(3_600))
    }

    @Test(arguments: ["SameSite=None", "SameSite=none", "SameSite=NONE", "SameSite=Lax; SameSite=None"])
    func sameSiteNoneWithoutSecureIsIgnored(_ attribute: String) throws {
        let jar = CookieJar(now: clock.now)
        let error = rejection(of: "a=1; Path=/; \(attribute)", from: origin, in: jar)
        #expect(error?.code == .sameSiteNoneWithoutSecure)
        #expect(jar.cookieHeader(for: origin) == nil)
        #expect(jar.setCookies(fromHeaderValues: ["b=1; Path=/; \(attribute)"], for: url("http://example.com/")) == 0)
        try jar.setCookie(fromHeaderValue: "c=1; Path=/; \(attribute); Secure", for: origin)
        #expect(jar.cookieHeader(for: origin) == "c=1")
    }

    @Test func otherSameSiteValuesNeedNoSecure() {
        let jar = CookieJar(now: clock.now)
        let stored = jar.setCookies(fromHeaderValues: [
            "a=1; Path=/; SameSite=Lax", "b=1; Path=/; SameSite=Strict", "c=1; Path=/; SameSite=bogus",
            "d=1; Path=/; SameSite=None; SameSite=Lax",
        ], for: url("http://example.com/"))
        #expect(stored == 4)
    }

    @Test func sameSiteRejectionNamesTheRuleAndNotTheValue() throws {
        let jar = CookieJar(now: clock.now)
        let error = try #require(rejection(of: "sid=topsecret; SameSite=None", from: origin, in: jar))
        #expect(error.message.contains("SameSite=None"))
        #expect(!error.description.contains("topsecret"))
    }
}
