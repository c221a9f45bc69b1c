// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthSigning
import Foundation
import HTTPTypes
import Testing

/// RFC 9530 Content-Digest, with the example body of RFC 9530 §B.
@Suite struct ContentDigestTests {
    static let body = Data(#"{"hello": "world"}"#.utf8)

    @Test func makesTheRFC9530Values() {
        #expect(ContentDigest.value(for: Self.body, algorithms: [.sha256]) == "sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:")
        #expect(ContentDigest.value(for: Self.body, algorithms: [.sha512]) == "sha-512=:WZDPaVn/7XgHaAy8pmojAkGWoRx2UFChF41A2svX+TaPm+AbwAgBWnrIiYllu7BNNyealdVLvRwEmTHWXvJwew==:")
        #expect(ContentDigest.value(for: Self.body, algorithms: [.sha256, .sha512]).hasPrefix("sha-256=:X48E9q"))
    }

    @Test func checksBothAlgorithms() throws {
        try ContentDigest.verify("sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:", body: Self.body)
        try ContentDigest.verify("sha-512=:WZDPaVn/7XgHaAy8pmojAkGWoRx2UFChF41A2svX+TaPm+AbwAgBWnrIiYllu7BNNyealdVLvRwEmTHWXvJwew==:", body: Self.body)
        try ContentDigest.verify("md5=:AAAA:, sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:", body: Self.body)
    }

    @Test(arguments: [
        ("sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:", #"{"hello": "World"}"#, "contentDigestMismatch"),
        ("sha-512=:WZDPaVn/7XgHaAy8pmojAkGWoRx2UFChF41A2svX+TaPm+AbwAgBWnrIiYllu7BNNyealdVLvRwEmTHWXvJwew==:", "", "contentDigestMismatch"),
        ("sha-256=X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=", #"{"hello": "world"}"#, "malformedContentDigest"),
        ("sha-256=\"abc\"", #"{"hello": "world"}"#, "malformedContentDigest"),
        ("md5=:AAAA:", #"{"hello": "world"}"#, "malformedContentDigest"),
    ])
    func refusesWrongOrMalformed(field: String, body: String, code: String) {
        do {
            try ContentDigest.verify(field, body: Data(body.utf8))
            Issue.record("accepted \(field)")
        } catch {
            #expect(error.code.description == code)
        }
    }
}
