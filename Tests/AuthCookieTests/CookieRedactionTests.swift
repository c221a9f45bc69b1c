// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing
@testable import AuthCookie

@Suite struct CookieRedactionTests {
    static let secrets = ["s3cr3t-session-value", "csrf-token-987654", "春节回家路"]

    func jar() throws -> CookieJar {
        let jar = CookieJar(configuration: .init(persistSessionCookies: true), now: TestClock().now)
        try jar.setCookie(fromHeaderValue: "sid=\(Self.secrets[0]); Secure; HttpOnly; Max-Age=60", for: url("https://example.com/"))
        try jar.setCookie(fromHeaderValue: "csrf=\(Self.secrets[1]); SameSite=Strict", for: url("https://example.com/"))
        try jar.setCookie(fromHeaderValue: "greeting=\(Self.secrets[2])", for: url("https://example.com/"))
        return jar
    }

    func expectNoSecret(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for secret in Self.secrets {
            #expect(!text.contains(secret), "'\(text)' shows a cookie value", sourceLocation: sourceLocation)
        }
    }

    func dumped(_ value: Any) -> String {
        var text = ""
        dump(value, to: &text)
        return text
    }

    @Test func jarDescriptionAndDumpHideValues() throws {
        let jar = try jar()
        expectNoSecret(jar.description)
        expectNoSecret(jar.debugDescription)
        expectNoSecret(String(reflecting: jar))
        let dump = dumped(jar)
        expectNoSecret(dump)
        #expect(dump.contains("sid") && dump.contains("csrf"))  // names stay visible
    }

    @Test func cookieSnapshotAndParsedValueHideValues() throws {
        let jar = try jar()
        for cookie in jar.allCookies {
            expectNoSecret(cookie.description)
            expectNoSecret(String(reflecting: cookie))
            expectNoSecret(dumped(cookie))
            expectNoSecret("\(cookie)")
        }
        expectNoSecret(jar.snapshot().description)
        expectNoSecret(dumped(jar.snapshot()))
        expectNoSecret("\(jar.allCookies)")
        let parsed = try #require(SetCookie(parsing: "sid=\(Self.secrets[0]); Path=/"))
        expectNoSecret(parsed.description)
        expectNoSecret(dumped(parsed))
    }

    @Test func rejectionErrorsHideValues() {
        let jar = CookieJar()
        let attempts = [
            ("sid=\(Self.secrets[0]); Domain=com", "https://example.com/"),
            ("sid=\(Self.secrets[0]); Secure", "http://example.com/"),
            ("sid=\(Self.secrets[0]); Domain=other.org", "https://example.com/"),
            ("sid=\(Self.secrets[0])" + String(repeating: "x", count: 5000), "https://example.com/"),
            ("\(Self.secrets[0])", "https://example.com/"),
        ]
        for (header, origin) in attempts {
            do {
                try jar.setCookie(fromHeaderValue: header, for: url(origin))
                Issue.record("accepted \(origin)")
            } catch {
                expectNoSecret(error.description)
            }
        }
    }
}
