// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing
import AuthCookie

/// `Domain=` cookies on public suffixes ("supercookies"), through the jar's public API with the
/// shipped Mozilla list: a cookie one site sets for a public suffix would reach every site under
/// it, so the jar must refuse it for every kind of rule.
@Suite struct SupercookieTests {
    let clock = TestClock()

    /// Sets `Domain=domain` from `origin` and expects the jar to refuse it, store nothing and
    /// send nothing to another site under the domain.
    private func expectRejected(
        _ domain: String, from origin: String, code: CookieError.Code? = .publicSuffix,
        victim: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let jar = CookieJar(now: clock.now)
        do {
            try jar.setCookie(fromHeaderValue: "tracker=1; Domain=\(domain); Path=/", for: url(origin))
            Issue.record("Domain=\(domain) from \(origin) was accepted", sourceLocation: sourceLocation)
        } catch {
            if let code { #expect(error.code == code, "Domain=\(domain): \(error)", sourceLocation: sourceLocation) }
        }
        #expect(jar.count == 0, sourceLocation: sourceLocation)
        let victim = victim ?? "https://victim.\(domain.hasSuffix(".") ? String(domain.dropLast()) : domain)/"
        #expect(jar.cookieHeader(for: url(victim)) == nil, sourceLocation: sourceLocation)
    }

    /// Sets `Domain=domain` from `origin` and returns the jar holding it.
    private func accepted(_ domain: String, from origin: String) throws -> CookieJar {
        let jar = CookieJar(now: clock.now)
        let cookie = try jar.setCookie(fromHeaderValue: "site=1; Domain=\(domain); Path=/", for: url(origin))
        #expect(!cookie.isHostOnly && cookie.domain == domain)
        return jar
    }

    @Test(arguments: [
        ("com", "https://www.example.com/"), ("co.uk", "https://shop.example.co.uk/"), ("uk", "https://a.example.co.uk/"),
        ("com.au", "https://www.example.com.au/"), ("k12.ak.us", "https://school.k12.ak.us/"),
        ("kyoto.jp", "https://www.city.kyoto.jp/"), ("xn--55qx5d.cn", "https://shop.xn--55qx5d.cn/"),
    ])
    func normalICANNSuffixesAreRefused(_ domain: String, _ origin: String) {
        expectRejected(domain, from: origin)
    }

    @Test(arguments: [
        // *.ck, *.mm, *.kawasaki.jp; *.compute.amazonaws.com and *.platformsh.site (private).
        ("anything.ck", "https://www.anything.ck/"), ("c.mm", "https://b.c.mm/"), ("x.kawasaki.jp", "https://www.x.kawasaki.jp/"),
        ("us-east-2.compute.amazonaws.com", "https://ec2-1-2-3-4.us-east-2.compute.amazonaws.com/"),
        ("project.platformsh.site", "https://main.project.platformsh.site/"),
    ])
    func wildcardSuffixesAreRefused(_ domain: String, _ origin: String) {
        expectRejected(domain, from: origin)
    }

    @Test func aDomainBelowAWildcardIsRegistrable() throws {
        let jar = try accepted("shop.anything.ck", from: "https://www.shop.anything.ck/")
        #expect(jar.cookieHeader(for: url("https://shop.anything.ck/")) == "site=1")
        #expect(jar.cookieHeader(for: url("https://other.anything.ck/")) == nil)
    }

    @Test func exceptionRulesMakeADomainRegistrable() throws {
        // !www.ck beats *.ck; !city.kobe.jp beats *.kobe.jp.
        let ck = try accepted("www.ck", from: "https://shop.www.ck/")
        #expect(ck.cookieHeader(for: url("https://www.ck/")) == "site=1")
        #expect(ck.cookieHeader(for: url("https://deep.shop.www.ck/")) == "site=1")
        #expect(ck.cookieHeader(for: url("https://other.ck/")) == nil)
        let kobe = try accepted("city.kobe.jp", from: "https://www.city.kobe.jp/")
        #expect(kobe.cookieHeader(for: url("https://city.kobe.jp/")) == "site=1")
        // The parent of the exception stays public.
        expectRejected("ck", from: "https://shop.www.ck/")
    }

    /// By the list's algorithm `kobe.jp` is not itself a public suffix (`*.kobe.jp` needs one
    /// more label), yet every `x.kobe.jp` below it is one. Browsers refuse such a Domain all the
    /// same, because it is wider than the host's registrable domain; the jar's storage model
    /// does not make that check yet (it asks only ``PublicSuffixList/isPublicSuffix(_:)``).
    @Test func aDomainWiderThanTheHostsRegistrableDomainIsRefused() {
        #expect(!PublicSuffixList.builtIn.isPublicSuffix("kobe.jp"))
        #expect(PublicSuffixList.builtIn.registrableDomain(for: "www.shop.kobe.jp") == "www.shop.kobe.jp")
        expectRejected("kobe.jp", from: "https://www.shop.kobe.jp/", code: .publicSuffix)
        expectRejected("amazonaws.com", from: "https://ec2-1-2-3-4.us-east-2.compute.amazonaws.com/", code: .publicSuffix)
    }

    @Test(arguments: [
        ("github.io", "https://me.github.io/"), ("blogspot.com", "https://me.blogspot.com/"),
        ("herokuapp.com", "https://app.herokuapp.com/"), ("appspot.com", "https://app.appspot.com/"),
        ("vercel.app", "https://app.vercel.app/"), ("netlify.app", "https://app.netlify.app/"),
        ("pages.dev", "https://app.pages.dev/"), ("workers.dev", "https://api.me.workers.dev/"),
        ("githubusercontent.com", "https://raw.githubusercontent.com/"), ("uk.com", "https://shop.example.uk.com/"),
    ])
    func privateSectionSuffixesAreRefused(_ domain: String, _ origin: String) {
        expectRejected(domain, from: origin)
    }

    @Test func aSiteOnAHostingPlatformKeepsItsOwnDomain() throws {
        let jar = try accepted("me.github.io", from: "https://blog.me.github.io/")
        #expect(jar.cookieHeader(for: url("https://me.github.io/")) == "site=1")
        #expect(jar.cookieHeader(for: url("https://you.github.io/")) == nil)
    }

    @Test(arguments: [
        // From a fully qualified host, the trailing-dot domain matches: the list must refuse it.
        ("com.", "https://www.example.com./"), ("github.io.", "https://me.github.io./"),
        ("co.uk.", "https://shop.example.co.uk./"), ("anything.ck.", "https://www.anything.ck./"),
    ])
    func aTrailingDotDoesNotGetPastTheList(_ domain: String, _ origin: String) {
        expectRejected(domain, from: origin, victim: "https://victim.\(domain)/")
        expectRejected(domain, from: origin)
    }

    @Test func aTrailingDotDomainFromAnOrdinaryHostIsRefused() {
        // As in Chrome and Firefox: `example.com.` does not domain-match `www.example.com`.
        for (domain, origin) in [("com.", "https://www.example.com/"), ("github.io.", "https://me.github.io/"),
                                 ("example.com.", "https://www.example.com/")] {
            expectRejected(domain, from: origin, code: nil)
        }
    }

    @Test func aTrailingDotOnARegistrableDomainWorksForFullyQualifiedHostsOnly() throws {
        let jar = try accepted("example.com.", from: "https://www.example.com./")
        #expect(jar.cookieHeader(for: url("https://api.example.com./")) == "site=1")
        #expect(jar.cookieHeader(for: url("https://api.example.com/")) == nil)
        #expect(jar.cookieHeader(for: url("https://victim.com./")) == nil)
    }

    @Test func aPublicSuffixThatIsTheHostBecomesHostOnly() throws {
        let jar = CookieJar(now: clock.now)
        let cookie = try jar.setCookie(fromHeaderValue: "a=1; Domain=blogspot.com", for: url("https://blogspot.com/"))
        #expect(cookie.isHostOnly)
        #expect(jar.cookieHeader(for: url("https://someone.blogspot.com/")) == nil)
    }

    @Test func anUnavailableListFailsClosed() throws {
        let closed = PublicSuffixList.unavailable(because: CookieError(code: .publicSuffixListMissing, message: "test"))
        let jar = CookieJar(configuration: .init(publicSuffixes: closed), now: clock.now)
        // Cookies without Domain work as usual; Domain equal to the host becomes host-only.
        try jar.setCookie(fromHeaderValue: "a=1", for: url("https://www.example.com/"))
        let sameHost = try jar.setCookie(fromHeaderValue: "b=2; Domain=www.example.com", for: url("https://www.example.com/"))
        #expect(sameHost.isHostOnly)
        // Any wider Domain is refused, even a registrable one.
        #expect(throws: CookieError.self) {
            try jar.setCookie(fromHeaderValue: "c=3; Domain=example.com", for: url("https://www.example.com/"))
        }
        #expect(pairs(jar.cookieHeader(for: url("https://www.example.com/"))) == ["a=1", "b=2"])
        #expect(jar.cookieHeader(for: url("https://api.example.com/")) == nil)
    }

    @Test func aCustomListReplacesTheShippedOne() throws {
        let suffixes = try PublicSuffixList(rules: ["internal", "*.apps.internal", "!portal.apps.internal"])
        let jar = CookieJar(configuration: .init(publicSuffixes: suffixes), now: clock.now)
        #expect(jar.setCookies(fromHeaderValues: ["a=1; Domain=team.apps.internal"], for: url("https://x.team.apps.internal/")) == 0)
        #expect(jar.setCookies(fromHeaderValues: ["b=2; Domain=portal.apps.internal"], for: url("https://x.portal.apps.internal/")) == 1)
        #expect(jar.setCookies(fromHeaderValues: ["c=3; Domain=x.team.apps.internal"], for: url("https://y.x.team.apps.internal/")) == 1)
    }
}
