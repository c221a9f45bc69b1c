// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
@testable import AuthHTTPClient
import Foundation
import HTTPTypes
import Testing

/// The transports' half of "what is signed is what is sent": a request target reaches the server
/// byte for byte as the request holds it (the string a signer signed), or the request is refused
/// with a typed error and nothing is sent. Checked on the raw request line, over every visible
/// ASCII byte in the path and in the query, and the escapes that Foundation's URL, AsyncHTTPClient
/// or libcurl treat specially.
@Suite struct TargetFidelityTests {
    /// Every byte from `!` to `~` but `#` (which ends a target, and `urlForTransport` refuses),
    /// raw in a path segment and in a query value; then escapes and dot segments.
    static let targets: [String] = {
        var targets: [String] = []
        for byte in UInt8(ascii: "!")...UInt8(ascii: "~") where byte != UInt8(ascii: "#") {
            let character = String(UnicodeScalar(byte))
            targets.append("/k/a\(character)b")
            targets.append("/k?q=a\(character)b")
        }
        return targets + [
            "/k/a(1)", "/k/%281%29", "/k/!$&'()*+,;=:@", "/k/%7e", "/k/%7E", "/k/%e9", "/k/%C3%A9", "/k/%c3%a9", "/k/%FF",
            "/k/100%", "/k/%zz", "/k/%2F", "/k/%2f", "/k/a%20b", "/k/%25", "/k?q=%", "/k?q=%zz", "/k?q=%FF", "/k?q=a+b",
            "/k/./a", "/k/../a", "/k/%2e/a", "/k//a", "/k?", "/k?a&&b", "/k/%00", "/k/a?b?c", "/k;p", "/k/;", "/",
        ]
    }()

    @Test(arguments: TransportKind.allCases)
    func everyTargetArrivesByteForByteOrIsRefused(kind: TransportKind) async throws {
        let server = try RawHTTPServer()
        defer { server.close() }
        try await kind.withTransport { transport in
            var changed: [String] = []
            var refused: [String] = []
            for target in Self.targets {
                let before = server.requestHeads.count
                let request = AuthRequest(head: HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1:\(server.port)", path: target))
                do {
                    _ = try await transport.send(request)
                } catch let error as AuthError {
                    #expect(error.code == .invalidRequest, "\(kind): \(target): \(error)")
                    #expect(server.requestHeads.count == before, "\(kind) refused \(target) but sent something")
                    refused.append(target)
                    continue
                }
                let heads = server.requestHeads
                guard heads.count == before + 1 else {
                    changed.append("\(target) (no request line recorded)")
                    continue
                }
                let line = heads[before].prefix { $0 != "\r" }
                let sent = line.split(separator: " ", maxSplits: 2).dropFirst().first.map(String.init) ?? ""
                if sent != target { changed.append("\(target) went as \(sent)") }
            }
            #expect(changed.isEmpty, "\(kind) sent \(changed.count) targets otherwise than written:\n\(changed.joined(separator: "\n"))")
            // Only what the transport cannot send is refused: never a sub-delimiter, `:`, `@`, `/`,
            // `?` in a query, or a well-formed escape of UTF-8.
            let sendable = ["/k/a(1)", "/k/%281%29", "/k/!$&'()*+,;=:@", "/k/%7e", "/k/%C3%A9", "/k/%c3%a9", "/k/%2F", "/k/a%20b", "/k?q=a+b", "/k/a?b?c", "/k;p"]
            #expect(Set(refused).isDisjoint(with: sendable), "\(kind) refused \(refused)")
            #expect(refused.count < 35, "\(kind) refused \(refused)")
        }
    }

    /// The transport parses a target with Foundation only when it holds a byte Foundation may
    /// re-encode (or a `%`); the others it takes as sent as written. That claim, against
    /// Foundation itself, over targets made of every byte it counts as kept, in every position
    /// (empty segments, dot segments, `?` more than once, a trailing `?`), on each kind of host.
    @Test func aTargetOfKeptBytesIsWhatFoundationSends() {
        let kept = (UInt8(ascii: "!")...UInt8(ascii: "~")).filter(PathFidelity.isKeptAsWritten).map { Character(UnicodeScalar($0)) }
        #expect(kept.count == 81, "the kept alphabet changed: \(String(kept))")
        var generator = SystemRandomNumberGenerator()
        let hosts = ["http://127.0.0.1:8080", "https://api.example.com", "http://[::1]:9000", "http://localhost"]
        var differing: [String] = []
        var targets = ["/", "/?", "//", "/./", "/../a", "/a?b?c", "/?/?", "/a;b=c", "/:@", "/~user", "/a/./../b?x=../y"]
        for _ in 0..<3_000 {
            let length = Int.random(in: 0...24, using: &generator)
            targets.append("/" + String((0..<length).map { _ in kept.randomElement(using: &generator)! }))
        }
        for target in targets {
            for host in hosts where PathFidelity.targetSent(for: host + target) != target {
                differing.append(host + target)
            }
            #expect(PathFidelity.sendsAsWritten(target, in: hosts[0] + target))
        }
        #expect(differing.isEmpty, "Foundation sends these otherwise than written: \(differing.prefix(20))")
        // And a byte it re-encodes, or an escape that does not decode to UTF-8, is not taken as kept.
        for target in ["/a[b", "/a|b", "/a%FF", "/a%zz", "/a\\b", "/a{b}"] {
            #expect(!PathFidelity.sendsAsWritten(target, in: hosts[0] + target), "\(target)")
        }
        #expect(PathFidelity.sendsAsWritten("/a%41", in: hosts[0] + "/a%41"), "a well-formed UTF-8 escape goes as written, through the parse")
    }
}
