// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Foundation
import HTTPTypes
import Testing
@testable import AuthCookie

@Suite struct CookieStorageTests {
    let clock = TestClock()
    let origin = url("https://example.com/")

    @Test func replacementKeepsCreationTimeAndTakesTheNewValue() throws {
        let jar = CookieJar(now: clock.now)
        let first = try jar.setCookie(fromHeaderValue: "a=1", for: origin)
        clock.advance(by: 10)
        try jar.setCookie(fromHeaderValue: "b=2", for: origin)
        clock.advance(by: 10)
        try jar.setCookie(fromHeaderValue: "a=3; HttpOnly", for: origin)
        let stored = try #require(jar.allCookies.first { $0.name == "a" })
        #expect(stored.value == "3" && stored.isHTTPOnly)
        #expect(stored.creationTime == first.creationTime)
        #expect(stored.lastAccessTime == clock.date)
        #expect(jar.count == 2)
        // Still ordered by its original creation: before b.
        #expect(jar.cookieHeader(for: origin) == "a=3; b=2")
    }

    @Test func differentPathOrDomainIsADifferentCookie() throws {
        let jar = CookieJar(now: clock.now)
        jar.setCookies(fromHeaderValues: ["a=1; Path=/", "a=2; Path=/api", "a=3; Domain=example.com"],
                       for: url("https://www.example.com/"))
        #expect(jar.count == 3)
        #expect(pairs(jar.cookieHeader(for: url("https://www.example.com/api/x"))) == ["a=2", "a=1", "a=3"])
        #expect(pairs(jar.cookieHeader(for: url("https://example.com/api/x"))) == ["a=3"])
    }

    @Test func sameNameDomainAndPathReplacesWhateverTheHostOnlyFlag() throws {
        let jar = CookieJar(now: clock.now)
        try jar.setCookie(fromHeaderValue: "a=1", for: origin)
        let replaced = try jar.setCookie(fromHeaderValue: "a=2; Domain=example.com", for: origin)
        #expect(!replaced.isHostOnly)
        #expect(jar.count == 1)
        #expect(jar.cookieHeader(for: url("https://sub.example.com/")) == "a=2")
    }

    @Test func headerOrderIsLongerPathThenEarlierCreation() throws {
        let jar = CookieJar(now: clock.now)
        for header in ["root1=1; Path=/", "deep=1; Path=/a/b", "mid=1; Path=/a", "root2=1; Path=/", "mid2=1; Path=/a/"] {
            try jar.setCookie(fromHeaderValue: header, for: origin)
            clock.advance(by: 1)
        }
        #expect(pairs(jar.cookieHeader(for: url("https://example.com/a/b/c")))
            == ["deep=1", "mid2=1", "mid=1", "root1=1", "root2=1"])
        #expect(pairs(jar.cookieHeader(for: url("https://example.com/ab"))) == ["root1=1", "root2=1"])
    }

    @Test func sendingUpdatesLastAccessTime() throws {
        let jar = CookieJar(now: clock.now)
        try jar.setCookie(fromHeaderValue: "a=1", for: origin)
        clock.advance(by: 100)
        _ = jar.cookieHeader(for: origin)
        #expect(jar.allCookies.first?.lastAccessTime == clock.date)
    }

    @Test func perDomainLimitEvictsTheLeastRecentlyAccessed() throws {
        let jar = CookieJar(configuration: .init(maxCookiesPerDomain: 3), now: clock.now)
        for name in ["a", "b", "c"] {
            try jar.setCookie(fromHeaderValue: "\(name)=1; Path=/\(name)", for: origin)
            clock.advance(by: 1)
        }
        _ = jar.cookieHeader(for: url("https://example.com/a"))  // a is now the freshest
        clock.advance(by: 1)
        try jar.setCookie(fromHeaderValue: "d=1", for: origin)
        #expect(Set(jar.allCookies.map(\.name)) == ["a", "c", "d"])
        // Another domain has its own allowance.
        jar.setCookies(fromHeaderValues: ["x=1", "y=1", "z=1"], for: url("https://other.com/"))
        #expect(jar.count == 6)
    }

    @Test func perDomainLimitEvictsTheEarliestCreatedOnEqualAccess() throws {
        let jar = CookieJar(configuration: .init(maxCookiesPerDomain: 2), now: clock.now)
        jar.setCookies(fromHeaderValues: ["a=1", "b=1", "c=1"], for: origin)
        #expect(jar.allCookies.map(\.name) == ["b", "c"])
    }

    @Test func totalLimitEvictsTheOldestAnywhere() throws {
        let jar = CookieJar(configuration: .init(maxTotalCookies: 3), now: clock.now)
        for host in ["a.com", "b.com", "c.com", "d.com"] {
            try jar.setCookie(fromHeaderValue: "k=1", for: url("https://\(host)/"))
            clock.advance(by: 1)
        }
        #expect(jar.allCookies.map(\.domain) == ["b.com", "c.com", "d.com"])
    }

    /// Issue 52: past the total limit the jar purges a tenth at once (Chromium's rule) instead
    /// of scanning every cookie for each one stored (20,000 hosts took 158 s). The newest stay.
    @Test func twentyThousandHostsKeepTheNewestWithinTheLimit() throws {
        let jar = CookieJar(configuration: .init(maxTotalCookies: 3_000), now: clock.now)
        for host in 0..<20_000 {
            try jar.setCookie(fromHeaderValue: "sid=\(host)", for: url("https://h\(host).example.com/"))
            clock.advance(by: 1)
        }
        #expect(jar.count <= 3_000)
        #expect(jar.count >= CookieStorage.purgeTarget(for: 3_000))
        let kept = Set(jar.allCookies.map(\.domain))
        #expect(kept.contains("h19999.example.com"))
        #expect((19_999 - CookieStorage.purgeTarget(for: 3_000) + 1...19_999).allSatisfy { kept.contains("h\($0).example.com") })
        #expect(!kept.contains("h0.example.com"))
    }

    @Test func oversizeCookieIsIgnoredAndEvictsNothing() throws {
        let jar = CookieJar(configuration: .init(maxCookiesPerDomain: 1), now: clock.now)
        try jar.setCookie(fromHeaderValue: "keep=1", for: origin)
        let big = String(repeating: "x", count: 4096)
        #expect(throws: CookieError.self) { try jar.setCookie(fromHeaderValue: "big=\(big)", for: origin) }
        #expect(throws: CookieError.self) { try jar.setCookie(fromHeaderValue: "keep=\(big)", for: origin) }
        #expect(jar.cookieHeader(for: origin) == "keep=1")
        // Exactly at the limit (name + value = 4096 bytes) is accepted.
        try jar.setCookie(fromHeaderValue: "k=" + String(repeating: "y", count: 4095), for: origin)
        #expect(jar.allCookies.first?.value.count == 4095)
    }

    @Test func expiryFollowsTheInjectedClock() throws {
        let jar = CookieJar(now: clock.now)
        jar.setCookies(fromHeaderValues: ["short=1; Max-Age=10", "session=1", "dated=1; Expires=Wed, 01 Jan 2200 00:00:00 GMT"],
                       for: origin)
        #expect(pairs(jar.cookieHeader(for: origin)) == ["short=1", "session=1", "dated=1"])
        clock.advance(by: 11)
        #expect(pairs(jar.cookieHeader(for: origin)) == ["session=1", "dated=1"])
        jar.removeExpired()
        #expect(jar.count == 2)
        jar.removeAll()
        #expect(jar.count == 0 && jar.allCookies.isEmpty)
    }

    @Test func expiredSetCookieDeletesTheStoredCookie() throws {
        let jar = CookieJar(now: clock.now)
        try jar.setCookie(fromHeaderValue: "sid=1; Path=/", for: origin)
        try jar.setCookie(fromHeaderValue: "sid=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT", for: origin)
        #expect(jar.count == 0)
    }

    @Test func responseHeaderFieldsAreStoredOneByOne() {
        let jar = CookieJar(now: clock.now)
        var fields = HTTPFields()
        fields.append(HTTPField(name: .setCookie, value: "a=1, b=2"))  // one field: the comma is part of the value
        fields.append(HTTPField(name: .setCookie, value: "c=3; Max-Age=60"))
        let stored = jar.setCookies(from: AuthResponse(status: .ok, headerFields: fields), for: origin)
        #expect(stored == 2)
        #expect(jar.cookieHeader(for: origin) == "a=1, b=2; c=3")
    }
}
