// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthTesting
import Foundation
import Testing
@testable import AuthCookie

/// Builds Set-Cookie-like strings from fragments that stress the parser.
struct SetCookieFuzzer {
    var random: SeededRandom
    static let fragments = [
        "=", ";", ";;", " ", "\t", "\"", ",", "a", "b", "zz", "=x", "sid", "é", "春", "🍪", "\\",
        "Expires=", "expires=Thu, 01 Jan 1970 00:00:00 GMT", "Expires=Fri, 31 Dec 9999 23:59:59 GMT",
        "Expires=99:99:99 32 Foo 0", "Max-Age=", "max-age=-1", "Max-Age=0", "Max-Age=999999999999999999999",
        "Max-Age=1e3", "Domain=", "domain=.", "Domain=..", "Domain=fuzz.example.net", "Domain=example.net",
        "Domain=net", "Domain=co.uk", "Domain=[::1]", "Domain=127.0.0.1", "Domain=.FUZZ.example.NET.",
        "Path=", "Path=/", "path=/a/b/", "Path=relative", "Secure", "HttpOnly", "SameSite=", "SameSite=Lax",
        "samesite=none", "SameSite=🍪", "\u{0}", "\r", "\n", "\u{7F}", "%00", "%", String(repeating: "x", count: 300),
    ]

    mutating func next() -> String {
        let count = Int.random(in: 0...12, using: &random)
        var text = ""
        for _ in 0..<count {
            if Int.random(in: 0..<8, using: &random) == 0 {
                text.unicodeScalars.append(Unicode.Scalar(UInt8.random(in: 0...0x7F, using: &random)))
            } else {
                text += Self.fragments.randomElement(using: &random) ?? ""
            }
        }
        return text
    }

    /// A value the jar must ignore: built so that one of RFC 6265's rejection rules applies.
    mutating func malformed(host: String) -> String {
        let attributes = Int.random(in: 0...3, using: &random)
        var tail = ""
        for _ in 0..<attributes { tail += "; " + (Self.fragments.randomElement(using: &random) ?? "") }
        switch Int.random(in: 0..<7, using: &random) {
        case 0: return "novalue" + tail.replacingOccurrences(of: "=", with: "")   // no "=" at all before ";"
        case 1: return " =value" + tail                                            // empty name
        case 2: return "n=v\r\nInjected: 1" + tail                                 // control characters
        case 3: return "n=v; Domain=other.org" + tail.replacingOccurrences(of: "domain", with: "X", options: .caseInsensitive)
        case 4: return "n=v; Domain=org" + tail.replacingOccurrences(of: "domain", with: "X", options: .caseInsensitive)
        case 5: return "n=" + String(repeating: "v", count: 5000) + tail
        default: return "n=v; Secure" + tail  // from http: insecure origin
        }
    }
}

@Suite struct CookieFuzzTests {
    @Test func randomValuesNeverCrashAndNeverTouchOtherSites() throws {
        let clock = TestClock()
        let jar = CookieJar(now: clock.now)
        let stable = url("https://stable.example.org/")
        for index in 0..<20 { try jar.setCookie(fromHeaderValue: "keep\(index)=v\(index); Max-Age=86400", for: stable) }
        let before = jar.allCookies

        var fuzzer = SetCookieFuzzer(random: SeededRandom(seed: 0xC00C1E))
        let targets = [url("https://fuzz.example.net/a/b"), url("http://fuzz.example.net/"), url("http://[::1]/x")]
        for round in 0..<5_000 {
            let value = fuzzer.next()
            _ = SetCookie(parsing: value)
            _ = CookieDate.parse(value)
            jar.setCookies(fromHeaderValues: [value], for: targets[round % targets.count])
            if round % 500 == 0 { clock.advance(by: 1) }
        }
        _ = jar.cookieHeader(for: url("https://fuzz.example.net/a/b/c"))
        #expect(jar.allCookies.filter { $0.domain == "stable.example.org" } == before)
        for cookie in jar.allCookies where cookie.domain != "stable.example.org" {
            #expect(["fuzz.example.net", "example.net", "::1"].contains(cookie.domain))
            #expect(!cookie.name.isEmpty)
            #expect(!cookie.value.unicodeScalars.contains { $0.value < 0x20 && $0 != "\t" })
        }
        #expect(jar.count <= 3 * jar.configuration.maxCookiesPerDomain + before.count)
    }

    @Test func malformedValuesLeaveTheJarExactlyAsItWas() throws {
        let clock = TestClock()
        let jar = CookieJar(configuration: .init(maxCookiesPerDomain: 20), now: clock.now)
        let origin = url("http://app.example.org/a/")
        for index in 0..<20 { try jar.setCookie(fromHeaderValue: "keep\(index)=v\(index)", for: origin) }
        let before = jar.allCookies
        let generation = jar.generation

        var fuzzer = SetCookieFuzzer(random: SeededRandom(seed: 42))
        var rejected = 0
        for _ in 0..<5_000 {
            let value = fuzzer.malformed(host: "app.example.org")
            do { try jar.setCookie(fromHeaderValue: value, for: origin) } catch { rejected += 1 }
        }
        #expect(rejected == 5_000)
        #expect(jar.allCookies == before)
        #expect(jar.generation == generation)
    }
}
