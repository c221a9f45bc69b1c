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

@Suite struct JWTTests {
    static let rfc7519 = "eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ.dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"

    @Test func rfc7519ExampleDecodes() throws {
        let claims = try JWT.decode(Self.rfc7519)
        #expect(claims.issuer == "joe")
        #expect(claims.expiresAt == Date(timeIntervalSince1970: 1_300_819_380))
        #expect(claims.all["http://example.com/is_root"] == .bool(true))
        #expect(claims.subject == nil)
        #expect(claims.audience.isEmpty)
    }

    static func segment(_ json: String) -> String {
        Base64URL.encode(Data(json.utf8))
    }
    static let header = segment(#"{"alg":"HS256"}"#)

    @Test func registeredClaimsAreTyped() throws {
        let token = "\(Self.header).\(Self.segment(#"{"sub":"u1","iat":100,"nbf":101,"exp":200,"aud":["a","b"],"jti":"x","custom":{"k":[1,null]}}"#)).c2ln"
        let claims = try JWT.decode(token)
        #expect(claims.subject == "u1")
        #expect(claims.issuedAt == Date(timeIntervalSince1970: 100))
        #expect(claims.notBefore == Date(timeIntervalSince1970: 101))
        #expect(claims.expiresAt == Date(timeIntervalSince1970: 200))
        #expect(claims.audience == ["a", "b"])
        #expect(claims.id == "x")
        #expect(claims.all["custom"] == .object(["k": .array([.number(1), .null])]))
        let single = try JWT.decode("\(Self.header).\(Self.segment(#"{"aud":"only"}"#)).")
        #expect(single.audience == ["only"])
    }

    @Test(arguments: [
        ("onlyone", JWTError.segmentCount(1)),
        ("two.parts", JWTError.segmentCount(2)),
        ("a.b.c.d", JWTError.segmentCount(4)),
        ("\(header).@@@@.sig", JWTError.invalidBase64(part: "payload")),
        ("%%%.\(segment("{}")).sig", JWTError.invalidBase64(part: "header")),
        ("\(header).\(segment("not json")).sig", JWTError.invalidJSON(part: "payload")),
        ("\(header).\(segment("[1,2]")).sig", JWTError.invalidJSON(part: "payload")),
        ("\(segment("nope")).\(segment("{}")).sig", JWTError.invalidJSON(part: "header")),
        ("\(header).\(segment(#"{"exp":"tomorrow"}"#)).sig", JWTError.invalidClaim("exp", expected: "a number of seconds since 1970")),
        ("\(header).\(segment(#"{"aud":5}"#)).sig", JWTError.invalidClaim("aud", expected: "a string or an array of strings")),
        ("\(header).\(segment("{}")).a", JWTError.invalidBase64(part: "signature")),
    ])
    func malformedTokensGiveTypedErrors(token: String, expected: JWTError) {
        #expect(throws: expected) { try JWT.decode(token) }
    }

    @Test func malformedAccessTokenMeansNoExpiryNotACrash() {
        #expect(BearerTokenSet(accessToken: "not-a-jwt").expiresAt == nil)
        #expect(BearerTokenSet(accessToken: "\(Self.header).\(Self.segment(#"{"exp":"x"}"#)).s").expiresAt == nil)
        #expect(BearerTokenSet(accessToken: Self.rfc7519).expiresAt == Date(timeIntervalSince1970: 1_300_819_380))
        let explicit = Date(timeIntervalSince1970: 5)
        #expect(BearerTokenSet(accessToken: Self.rfc7519, expiresAt: explicit).expiresAt == explicit)
    }
}
