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

/// `AllowedHosts.allows(_: AuthRequest)`, which every authenticated request asks, answers on the
/// authority's bytes when it can; it must give the same answer as the general path through
/// ``Origin`` for every request, or a credential could reach an origin it was not meant for.
@Suite struct AllowedHostsRequestTests {
    static let patternSets: [[String]] = [
        ["api.example.com"],
        ["*.example.com"],
        ["api.example.com:8443"],
        ["127.0.0.1:*"],
        ["[::1]:8080", "localhost:*"],
        ["API.Example.COM", "*.Other.org:*"],
    ]

    static let schemes = ["https", "http", "wss", "ws", "HTTPS", "ftp"]

    static let authorities = [
        "api.example.com", "API.example.com", "api.example.com:443", "api.example.com:8443",
        "api.example.com:", "api.example.com:+443", "api.example.com:99999999999999999999",
        "api.example.com.", "a.b.example.com", "example.com", "badexample.com", "api.example.com.evil.net",
        "user:pw@api.example.com", "api.example.com@evil.net", "evil.net@api.example.com",
        "127.0.0.1", "127.0.0.1:9999", "localhost:1", "[::1]:8080", "[::1]", "[::1", "::1",
        "x.other.org:5", "X.OTHER.ORG", "ápi.example.com", "",
    ]

    @Test(arguments: patternSets)
    func theQuickAnswerIsAlwaysTheGeneralOne(patterns: [String]) {
        for insecure in [false, true] {
            let hosts = AllowedHosts(patterns, allowInsecure: insecure)
            for scheme in Self.schemes {
                for authority in Self.authorities {
                    let request = AuthRequest(head: HTTPRequest(method: .get, scheme: scheme, authority: authority, path: "/v1"))
                    let general = Origin(request.head).map(hosts.allows) ?? false
                    #expect(hosts.allows(request) == general, "\(patterns) insecure=\(insecure) \(scheme)://\(authority)")
                }
            }
        }
    }

    @Test func whatTheQuickPathDecidesForTheUsualCases() {
        let hosts = AllowedHosts(["api.example.com", "127.0.0.1:*"])
        func allowed(_ scheme: String, _ authority: String) -> Bool {
            hosts.allows(AuthRequest(head: HTTPRequest(method: .get, scheme: scheme, authority: authority, path: "/")))
        }
        #expect(allowed("https", "api.example.com"))
        #expect(allowed("https", "api.example.com:443"))
        #expect(!allowed("https", "api.example.com:8443"))
        #expect(!allowed("http", "api.example.com"))
        #expect(!allowed("https", "api.example.com@evil.net"))
        #expect(allowed("http", "127.0.0.1:4000"))
        #expect(!allowed("https", "127.0.0.2:4000"))
    }
}
