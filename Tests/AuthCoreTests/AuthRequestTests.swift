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

/// `AuthRequest` keeps its parts in one shared box; these check that it still behaves as a value
/// and that the origin every request is checked against is parsed right.
@Suite struct AuthRequestTests {
    let url = URL(string: "https://api.example.com/v1/me?fields=name")!

    @Test func aChangedCopyLeavesTheOriginalAsItWas() throws {
        let original = try AuthRequest(method: .post, url: url, body: Data("one".utf8))
        var copy = original
        #expect(copy == original)

        copy.head.headerFields[.authorization] = "Bearer changed"
        copy.body = Data("two".utf8)
        copy.options.retryNonIdempotent = true

        #expect(original.head.headerFields[.authorization] == nil)
        #expect(original.body == Data("one".utf8))
        #expect(original.options.retryNonIdempotent == false)
        #expect(copy.head.headerFields[.authorization] == "Bearer changed")
        #expect(copy != original)
    }

    @Test func requestsBuiltApartWithTheSamePartsAreEqual() throws {
        let first = try AuthRequest(method: .get, url: url, headerFields: [.accept: "application/json"])
        let second = try AuthRequest(method: .get, url: url, headerFields: [.accept: "application/json"])
        #expect(first == second)
        var third = second
        third.head.method = .head
        #expect(first != third)
    }

    @Test(arguments: [
        ("https://API.Example.COM/x", "https", "api.example.com", 443),
        ("HTTP://Example.com:8080/x", "http", "example.com", 8080),
        ("https://user:secret@api.example.com:8443/x", "https", "api.example.com", 8443),
        ("http://[::1]/x", "http", "::1", 80),
        ("http://[::1]:9000/x", "http", "::1", 9000),
    ])
    func originIsLowerCasedWithoutUserInfoAndWithItsPort(url: String, scheme: String, host: String, port: Int) throws {
        let request = try AuthRequest(method: .get, url: #require(URL(string: url)))
        let origin = try #require(request.origin)
        #expect(origin.scheme == scheme)
        #expect(origin.host == host)
        #expect(origin.port == port)
    }
}
