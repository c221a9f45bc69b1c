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
import NIOHTTP1
import Testing

/// What the transport makes of a response on the wire: every field, whatever the case of its
/// name (common names take a shortcut, others the general validation), in order, and the body
/// byte for byte, small or large.
@Suite struct ResponseConversionTests {
    @Test(arguments: [0, 17, 4_096, 300_000])
    func fieldsAndBodyArriveAsSent(bodySize: Int) async throws {
        let body = String((0..<bodySize).map { Character(UnicodeScalar(UInt8(ascii: "a") + UInt8($0 % 26))) })
        let fields = [
            ("CONTENT-TYPE", "text/plain"), ("date", "Sun, 06 Nov 1994 08:49:37 GMT"), ("eTaG", "\"v1\""),
            ("Set-Cookie", "a=1"), ("set-cookie", "b=2"), ("X-Odd_Name.1", "odd"), ("Content-Typo", "not the common one"),
            ("Server", "raw"), ("Content-Length", String(bodySize)), ("Connection", "close"),
        ]
        let head = fields.map { "\($0.0): \($0.1)\r\n" }.joined()
        let server = try RawHTTPServer(answer: "HTTP/1.1 200 OK\r\n\(head)\r\n\(body)")
        defer { server.close() }
        let response = try await HTTPClientTransport.withTransport { transport in
            try await transport.send(AuthRequest(method: .get, url: server.url))
        }
        let received = response.head.headerFields.map { ($0.name.canonicalName, $0.value) }
        #expect(received.map(\.0) == fields.map { $0.0.lowercased() })
        #expect(received.map(\.1) == fields.map(\.1))
        #expect(response.head.headerFields[.contentType] == "text/plain")
        #expect(response.head.headerFields[fields: .setCookie].map(\.value) == ["a=1", "b=2"])
        #expect(response.body == Data(body.utf8))
        // The fields the pipeline reads without building the head read the same.
        for name in [HTTPField.Name.contentType, .date, .eTag, .setCookie, .server, .contentLength, .connection, HTTPField.Name("X-Odd_Name.1")!, .retryAfter] {
            #expect(response.headerValue(name) == response.head.headerFields.value(name), "\(name)")
        }
    }

    /// The `Content-Length` the transport finds, which bounds a body before it is read, is the
    /// one AsyncHTTPClient reads (`first(name:)`) for any name a server may send (a token): the
    /// first field so named in any case, none without one, and no other name of fourteen bytes.
    @Test(arguments: [
        [("Date", "x"), ("content-LENGTH", "12"), ("Content-Length", "40")],
        [("Content-Lengtx", "7"), ("X-Content-Leng", "8")],
        [("Content-Lengtx", "7"), ("CONTENT-LENGTH", "9")],
        [],
    ])
    func contentLengthIsTheFirstSoNamed(fields: [(String, String)]) {
        let headers = HTTPHeaders(fields)
        #expect(ResponseHead.contentLength(in: headers) == headers.first(name: "content-length"))
    }

    /// A response's fields read without building its head (`ResponseHead.value`) are what the
    /// built head gives, for values `HTTPField` keeps as they are and for those it changes
    /// (control bytes, spaces at either end), for repeated fields and `Cookie`'s separator, in
    /// any case of the name.
    @Test func fieldsReadWithoutTheHeadAreTheHeadsFields() {
        let headers = HTTPHeaders([
            ("Date", "Sun, 06 Nov 1994 08:49:37 GMT"), ("x-a", " leading"), ("X-A", "trailing\t"), ("X-B", "bad\u{01}byte"),
            ("X-C", "del\u{7F}"), ("Set-Cookie", "a=1"), ("set-cookie", "b=2"), ("Cookie", "c=1"), ("COOKIE", "d=2"),
            ("X-Empty", ""), ("X-Obs", "caf\u{E9}"), ("X-Inner", "a \t b"), ("X^A", "caret"), ("x~a", "tilde"),
            ("x@a", "not a name"), ("X-WS", " "), ("X-Tabs", "\t \t"),
        ])
        let head = ResponseHead(headers: headers)
        let built = head.headerFields()
        for raw in ["date", "x-a", "x-b", "x-c", "set-cookie", "cookie", "x-empty", "x-obs", "x-inner", "x-missing", "x^a", "x~a", "x`a", "x-ws", "x-tabs"] {
            let name = HTTPField.Name(raw)!
            #expect(head.value(name) == built.value(name), "\(raw)")
        }
        #expect(head.value(.setCookie) == "a=1, b=2")
        #expect(head.value(.cookie) == "c=1; d=2")
        // Names are equal in any case of their letters, nothing else (NIO's own lookup folds `^` and `~`, `@` and `` ` ``).
        #expect(head.value(HTTPField.Name("x~a")!) == "tilde")
        #expect(head.value(HTTPField.Name("x`a")!) == nil)
        #expect(head.value(HTTPField.Name("x-ws")!) == "")
        var response = AuthResponse(status: .ok, fields: head, body: Data())
        #expect(response.head.headerFields == built)
        #expect(response.status == .ok && response.head.status == .ok)
        // After the head is changed, fields are read from it, not from the transport's.
        response.head.headerFields[.date] = nil
        response.head.headerFields[HTTPField.Name("X-New")!] = "new"
        #expect(response.headerValue(.date) == nil)
        #expect(response.headerValue(HTTPField.Name("X-New")!) == "new")
        #expect(response.headerValue(.setCookie) == "a=1, b=2")
        response.head.status = .created
        #expect(response.status == .created)
    }

    /// `Date` and `X-RateLimit-Remaining`, which the pipeline reads, read as the head's fields do:
    /// absent, once or twice, in any case, among other fields, with values `HTTPField` changes.
    @Test func theFieldsThePipelineReadsAreTheHeadsFields() {
        let names = ["Date", "date", "DATE", "X-RateLimit-Remaining", "x-ratelimit-remaining", "X-RateLimit-Remainder", "Data", "X-Other"]
        let values = ["Sun, 06 Nov 1994 08:49:37 GMT", " 5", "7", "bad\u{01}", ""]
        let fields = names.flatMap { name in values.map { (name, $0) } }
        var lists: [[(String, String)]] = [[]] + fields.map { [$0] }
        for first in fields { for second in fields { lists.append([first, second]) } }
        for list in lists {
            let head = ResponseHead(headers: HTTPHeaders(list))
            let built = head.headerFields()
            for name in [HTTPField.Name.date, HTTPField.Name("X-RateLimit-Remaining")!, HTTPField.Name("Data")!, HTTPField.Name("X-RateLimit-Remainder")!] {
                #expect(head.value(name) == built.value(name), "\(list) \(name)")
            }
        }
        #expect(lists.count == 1 + 40 + 1_600)
    }

    /// The head fits the three words an existential holds in place, so that a response keeps it
    /// as `any ResponseHeadSource` without allocating a box for it on every response.
    @Test func theHeadIsKeptWithoutABox() {
        #expect(MemoryLayout<ResponseHead>.size <= 3 * MemoryLayout<Int>.size)
        #expect(MemoryLayout<ResponseHead>.alignment <= MemoryLayout<Int>.alignment)
    }

    /// Copies of a response read and change its head from many tasks at once: each reads the
    /// fields the transport received, and a change to one copy stays in that copy.
    @Test func copiesOfAResponseBuildItsHeadOnceAndApart() async {
        let headers = HTTPHeaders([("Date", "Sun, 06 Nov 1994 08:49:37 GMT"), ("X-N", "1"), ("x-n", "2")])
        let expected = ResponseHead(headers: headers).headerFields()
        let response = AuthResponse(status: .ok, fields: ResponseHead(headers: headers), body: Data("b".utf8))
        let results = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<64 {
                group.addTask {
                    var copy = response
                    let before = copy.head.headerFields == expected
                    copy.head.headerFields[HTTPField.Name("X-Task")!] = "\(index)"
                    return before && copy.head.headerFields[HTTPField.Name("X-Task")!] == "\(index)" && copy.headerValue(.date) == "Sun, 06 Nov 1994 08:49:37 GMT"
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results.count == 64 && results.allSatisfy { $0 })
        #expect(response.head.headerFields == expected)
        #expect(response.headerValue(HTTPField.Name("X-N")!) == "1, 2")
    }

    /// `isLegal`, which reads eight bytes at a time, against HTTPTypes itself: a value is legal
    /// exactly when `HTTPField` keeps it as it is. Every byte a value may or may not hold (and
    /// characters of two and three bytes), at every place of values from 1 to 20 bytes, so that it
    /// falls in the first, a middle or the last word, or in the tail.
    @Test func aValueIsLegalExactlyWhenHTTPFieldKeepsIt() {
        let characters = (0..<128).map { String(UnicodeScalar(UInt8($0))) } + ["\u{85}", "é", "\u{FFFD}", "\u{7FF}"]
        var refused = 0
        for length in 1...20 {
            for place in 0..<length {
                for character in characters {
                    var value = String(repeating: "a", count: length)
                    let index = value.index(value.startIndex, offsetBy: place)
                    value.replaceSubrange(index...index, with: character)
                    let kept = HTTPField(name: .date, value: value).value == value
                    #expect(ResponseHead.isLegal(value) == kept, "\(Array(value.utf8))")
                    if !kept { refused += 1 }
                }
            }
        }
        #expect(refused > 0)
        // Two odd bytes in one value: a tab (allowed) with a control byte, DEL or obs-text, in
        // one word or in two.
        let odd = ["\t", "\u{1}", "\u{1F}", "\u{7F}", "\u{80}", "é", " "]
        for first in odd {
            for second in odd {
                for (i, j) in [(1, 2), (1, 9), (7, 8), (3, 17), (9, 10)] {
                    var bytes = Array(repeating: "a", count: 19)
                    bytes[i] = first
                    bytes[j] = second
                    let value = bytes.joined()
                    #expect(ResponseHead.isLegal(value) == (HTTPField(name: .date, value: value).value == value), "\(Array(value.utf8))")
                }
            }
        }
        #expect(ResponseHead.isLegal("") && ResponseHead.isLegal("Thu, 26 Nov 2026 16:44:01 GMT"))
    }
}
