// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthTesting
import Foundation
import HTTPTypes
import Testing

/// `AuthRequest(method:url:)` reads the scheme, authority and target from the URL's bytes; it
/// must give exactly what HTTPTypes' `HTTPRequest(method:url:)` gives (through `URLComponents`),
/// and refuse exactly the URLs without a scheme or host.
@Suite struct RequestFromURLTests {
    static let schemes = ["http", "https", "HTTPS", "wss", "x-custom+v1", "host/path?u=http", "1http", "a_b"]
    static let userInfo = ["", "user@", "user:pa%20ss@", "a@b@", ":@"]
    static let hosts = ["example.com", "EXAMPLE.com", "127.0.0.1", "[::1]", "[2001:db8::1]", "xn--bcher-kva.example", "a-b.c_d", "h%41st"]
    static let ports = ["", ":443", ":80", ":8080", ":", ":0"]
    static let paths = ["", "/", "/a/b", "/a%20b/%7Euser", "//double", "/a;p=1/./../c", "/%FF", "/a:b@c"]
    static let queries = ["", "?", "?a=1&b=%20", "?q=a+b&&x", "?a=/b?c", "?%FF"]
    static let fragments = ["", "#", "#frag", "#a?b"]

    @Test func partsMatchHTTPTypesOverGeneratedURLs() throws {
        var random = SeededRandom(seed: 23)
        var compared = 0
        for _ in 0..<3_000 {
            let text = [Self.schemes, ["://"], Self.userInfo, Self.hosts, Self.ports, Self.paths, Self.queries, Self.fragments]
                .map { $0.randomElement(using: &random)! }.joined()
            guard let url = URL(string: text) else { continue }
            compared += 1
            try expectSameParts(url, text)
        }
        #expect(compared > 2_000)
    }

    @Test func relativeAndUnusualURLs() throws {
        let base = try #require(URL(string: "https://api.example.com/v1/"))
        let urls: [URL?] = [
            URL(string: "items?x=1", relativeTo: base), URL(string: "/root#f", relativeTo: base), URL(string: "//other.example/p", relativeTo: base),
            URL(string: "https://example.com"), URL(string: "https://example.com?only=query"), URL(string: "https://example.com#only-fragment"),
            URL(string: "https://example.com:8443"), URL(string: "http://[::1]:8080/"), URL(string: "https://user@example.com"),
            base.appending(path: "a b/c"), base.appending(queryItems: [URLQueryItem(name: "q", value: "a b&c")]),
        ]
        for url in urls.compactMap({ $0 }) { try expectSameParts(url, url.absoluteString) }
    }

    @Test func urlsWithoutSchemeOrHostAreRefused() throws {
        let texts = [
            "/path/only", "relative/path", "mailto:someone@example.com", "file:///tmp/x", "http:///no-host", "urn:isbn:0451450523", "http:opaque",
            // Relative references whose path or query holds `://`: no scheme, whatever follows.
            "api.example.com/v1/me?access_token=SECRET&cb=https://hooks.example/x", "/r?u=http://x", "a/b://c/d",
        ]
        for text in texts {
            let url = try #require(URL(string: text), "\(text)")
            #expect(throws: AuthError.self, "\(text)") { try AuthRequest(method: .get, url: url) }
        }
        #expect(throws: AuthError.self) { try AuthRequest(method: .get, url: URL(fileURLWithPath: "/tmp/file")) }
    }

    /// Either both refuse (no scheme or host) or both give the same parts, with one difference
    /// kept on purpose: an empty port after an IPv6 literal (`http://[::1]:/`) is dropped, as
    /// HTTPTypes drops it after any other host; HTTPTypes keeps that one (`[::1]:`).
    func expectSameParts(_ url: URL, _ text: String) throws {
        let accepted = url.scheme != nil && url.host != nil
        guard accepted else {
            #expect(throws: AuthError.self, "\(text)") { try AuthRequest(method: .get, url: url) }
            return
        }
        let ours = try AuthRequest(method: .get, url: url).head
        let theirs = HTTPRequest(method: .get, url: url)
        #expect(ours.scheme == theirs.scheme, "\(text)")
        let expected = theirs.authority.map { $0.hasSuffix("]:") ? String($0.dropLast()) : $0 }
        #expect(ours.authority == expected, "\(text)")
        #expect(ours.path == theirs.path, "\(text)")
    }
}
