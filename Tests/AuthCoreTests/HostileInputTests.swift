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
import Synchronization
import Testing

/// Server input that once ended the client process or confused its checks (issue 25).
@Suite struct HostileInputTests {
    /// The fuzzer's reproducer: a year of fifteen digits that overflowed the day arithmetic.
    static let reproducer = String(decoding: hexBytes("6e6f762020342030383a343a73000000000000000330383a343a330020363931313131313031313131313431"), as: UTF8.self)

    @Test(arguments: [
        reproducer,
        "Sun, 06 Nov 691111101111141 08:49:37 GMT",
        "Sun, 06 Nov 9223372036854775807 08:49:37 GMT",
        "Sun Nov  6 08:49:37 99999999999999999999",
        "Sunday, 06-Nov-9999999999999 08:49:37 GMT",
        "Sun, 06 Nov 1994 08:49:37 GMT 1994",
        "Sun, 06 Nov -1994 08:49:37 GMT",
        "Sun, 30 Feb 1994 08:49:37 GMT",
        "Sun, 06 Nov 1994 08:49:37",
        "Sun, 06 Nov 1994 8:49:37 GMT",
        "Sun, 06 Nov 123 08:49:37 GMT",
    ])
    func hostileHTTPDatesAreNilWithoutTrapping(text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }

    @Test func theThreeFormsStillParseAndLeapDaysAreKnown() {
        #expect(HTTPDate.parse("  sun, 06 nov 1994 08:49:37 gmt ") == Date(timeIntervalSince1970: 784_111_777))
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == Date(timeIntervalSince1970: 784_111_777))
        #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994") == Date(timeIntervalSince1970: 784_111_777))
        #expect(HTTPDate.parse("Tue, 29 Feb 2000 00:00:00 GMT") == Date(timeIntervalSince1970: 951_782_400))
        #expect(HTTPDate.parse("Fri, 31 Dec 9999 23:59:59 GMT") == Date(timeIntervalSince1970: 253_402_300_799))
        #expect(HTTPDate.parse("Mon, 29 Feb 1900 00:00:00 GMT") == nil)
    }

    /// Found by the fuzzer: a year below 1000 was written with fewer than four digits, so it
    /// read back as another year (42 as 2042) or not at all.
    @Test func everyParsedDateFormatsToTextThatParsesBack() throws {
        for text in ["Sun Nov  6 08:49:37 0997", "Sun, 06 Nov 0042 08:49:37 GMT", "Sat, 01 Jan 0000 00:00:00 GMT"] {
            let date = try #require(HTTPDate.parse(text))
            #expect(HTTPDate.parse(HTTPDate.format(date)) == date, "\(text) → \(HTTPDate.format(date))")
        }
        #expect(HTTPDate.format(try #require(HTTPDate.parse("Sun, 06 Nov 0042 08:49:37 GMT"))).contains(" 0042 "))
    }

    @Test(arguments: ["1000000000000000000000", String(repeating: "9", count: 400), "18446744073709551616"])
    func hugeRetryAfterIsCappedNotTrapped(value: String) async throws {
        #expect(RetryAfter.seconds(value, now: Date()) == RetryAfter.maximumSeconds)
        let clock = ManualClock()
        let answers = Answers([AuthResponse(status: .tooManyRequests, headerFields: [.retryAfter: value]), AuthResponse(status: .ok)])
        let client = AuthClient(transport: ClosureTransport { _ in answers.next() }, middlewares: [
            RetryMiddleware(policy: RetryPolicy(maxRetryAfter: .seconds(7), totalBudget: .seconds(60)), clock: clock),
        ])
        let response = try await client.send(.get, URL(string: "https://api.example.com/x")!)
        #expect(response.status == .ok)
        #expect(clock.sleeps == [.seconds(7)])
    }

    @Test func retryAfterDateFarAheadIsCapped() {
        #expect(RetryAfter.seconds("Fri, 31 Dec 9999 23:59:59 GMT", now: Date(timeIntervalSince1970: 0)) == RetryAfter.maximumSeconds)
        #expect(RetryAfter.seconds(" 120 ", now: Date()) == 120)
        #expect(RetryAfter.seconds("-5", now: Date()) == nil)
        #expect(RetryAfter.seconds("1e21", now: Date()) == nil)
    }

    /// Authorities that a userinfo-stripping or lenient parser reads as one host while a URL
    /// parser connects to another.
    @Test(arguments: [
        "127.0.0.1:1?@127.0.0.1:8080", "127.0.0.1:1#@127.0.0.1:8080", "127.0.0.1:1/@127.0.0.1:8080",
        "user@127.0.0.1:8080", "127.0.0.1:8080@evil.example", "127.0.0.1:+8080", "127.0.0.1:08080x",
        "127.0.0.1:99999", "127.0.0.1:8080:80", "127.0.0.1%2f:8080", "127.0.0.1\\@evil:8080", "[::1", "[::1]x",
        "[::1%25eth0]:8080", "127.0.0.1 :8080", "",
    ])
    func malformedAuthoritiesGetNoCredentialAndCannotBeSent(authority: String) {
        let request = AuthRequest(head: HTTPRequest(method: .get, scheme: "http", authority: authority, path: "/me"))
        let hosts = AllowedHosts(["127.0.0.1:8080", "127.0.0.1:*", "[::1]:*"])
        #expect(!hosts.allows(request))
        #expect(request.origin == nil)
        #expect(throws: AuthError.self) { try request.urlForTransport() }
    }

    @Test func transportURLIsTheCheckedOrigin() throws {
        func target(_ scheme: String, _ authority: String, _ path: String = "/a?b=1") throws -> String {
            try AuthRequest(head: HTTPRequest(method: .get, scheme: scheme, authority: authority, path: path)).urlForTransport()
        }
        #expect(try target("http", "127.0.0.1:8080") == "http://127.0.0.1:8080/a?b=1")
        #expect(try target("HTTPS", "API.Example.COM:443") == "https://api.example.com/a?b=1")
        #expect(try target("http", "[::1]:9000") == "http://[::1]:9000/a?b=1")
        #expect(throws: AuthError.self) { try target("http", "127.0.0.1:8080", "@evil.example/x") }
        #expect(throws: AuthError.self) { try target("http", "127.0.0.1:8080", "/a#@evil") }
        #expect(throws: AuthError.self) { try target("http", "127.0.0.1:8080", "/a b") }
        #expect(throws: AuthError.self) { try target("ftp", "127.0.0.1:8080") }
    }

    @Test func loopbackMeansAnAddressOfThisMachine() {
        for host in ["127.0.0.1", "127.5.6.7", "127.255.255.255", "::1", "0:0:0:0:0:0:0:1", "localhost"] {
            #expect(Origin.isLoopback(host: host), "\(host)")
        }
        for host in ["127.evil.example.com", "127.0.0.1.evil.example", "127.1", "0177.0.0.1", "128.0.0.1", "::2", "localhost.evil", "evil-localhost", ""] {
            #expect(!Origin.isLoopback(host: host), "\(host)")
        }
        let plainHTTP = AllowedHosts(["127.evil.example.com", "127.0.0.1:*"])
        let evil = AuthRequest(head: HTTPRequest(method: .get, scheme: "http", authority: "127.evil.example.com", path: "/"))
        #expect(!plainHTTP.allows(evil))
        #expect(!plainHTTP.allows(Origin(scheme: "http", host: "127.evil.example.com")))
        let local = AuthRequest(head: HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1:8080", path: "/"))
        #expect(plainHTTP.allows(local))
    }

    @Test func keysOfOneAccountAreOneKeyInEveryForm() throws {
        let composed = "caf\u{E9}", decomposed = "cafe\u{301}"
        let nfc = CredentialKey(namespace: "ns\u{E9}", account: composed, item: "credential")
        var nfd = CredentialKey(namespace: "nse\u{301}", account: decomposed, item: "credential")
        #expect(Array(nfd.account.utf8) == Array(composed.utf8))
        #expect(Array(nfd.namespace.utf8) == Array(nfc.namespace.utf8))
        nfd.item = "cred\u{E9}"
        #expect(Array(nfd.item.utf8) == Array("cred\u{E9}".utf8))
        #expect(Array(AccountKey(namespace: "n", account: decomposed).account.utf8) == Array(composed.utf8))
        let decoded = try JSONDecoder().decode(CredentialKey.self, from: Data(#"{"namespace":"n","account":"cafe\u0301","item":"i"}"#.utf8))
        #expect(Array(decoded.account.utf8) == Array(composed.utf8))
    }

    @Test func theInMemoryStoreKeepsOneRecordForBothForms() async throws {
        let store = InMemoryCredentialStore()
        try await store.put(Envelope(kind: "k", payload: Data("first".utf8), updatedAt: Date()), for: CredentialKey(namespace: "n", account: "caf\u{E9}", item: "i"))
        try await store.put(Envelope(kind: "k", payload: Data("second".utf8), updatedAt: Date()), for: CredentialKey(namespace: "n", account: "cafe\u{301}", item: "i"))
        #expect(try await store.accounts(in: "n").count == 1)
    }
}

/// Answers a fixed list of responses in order (the last one repeats).
final class Answers: Sendable {
    private let state: Mutex<[AuthResponse]>
    init(_ responses: [AuthResponse]) { state = Mutex(responses) }
    func next() -> AuthResponse {
        state.withLock { list in list.count > 1 ? list.removeFirst() : list[0] }
    }
}

func hexBytes(_ hex: String) -> [UInt8] {
    var bytes: [UInt8] = []
    var index = hex.startIndex
    while index < hex.endIndex {
        let next = hex.index(index, offsetBy: 2)
        bytes.append(UInt8(hex[index..<next], radix: 16)!)
        index = next
    }
    return bytes
}
