// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Foundation
import Testing

/// Hostile and non-canonical tokens (issue 18, item 8): nesting, size, duplicate claims, base64url
/// strictness and exact integers. Timing is left to benchmarks; these assert the typed outcome.
@Suite struct JWTStrictnessTests {
    static func segment(_ json: String) -> String { JWTTests.segment(json) }
    static let header = JWTTests.header

    static func token(payload json: String) -> String {
        "\(header).\(segment(json)).c2ln"
    }

    /// `{"a":{"a":…{"a":1}…}}`, `depth` objects deep counting the claims object.
    static func nestedObjects(depth: Int) -> String {
        String(repeating: #"{"a":"#, count: depth - 1) + "{}" + String(repeating: "}", count: depth - 1)
    }

    @Test func fiveHundredLevelsAreRefusedNamingTheLimit() throws {
        let json = "{\"c\":" + String(repeating: "[", count: 500) + String(repeating: "]", count: 500) + "}"
        let token = Self.token(payload: json)
        #expect(token.utf8.count > 1_000)
        let error = try #require(throws: JWTError.self) { try JWT.decode(token) }
        #expect(error == .tooDeep(part: "payload", limit: JWT.maximumDepth))
        #expect(error.description.contains("\(JWT.maximumDepth)"))
        #expect(!error.description.contains("["))
        #expect(BearerTokenSet(accessToken: token).expiresAt == nil)
    }

    @Test func deeplyNestedObjectsAreRefused() {
        let token = Self.token(payload: Self.nestedObjects(depth: 500))
        #expect(throws: JWTError.tooDeep(part: "payload", limit: JWT.maximumDepth)) { try JWT.decode(token) }
        let header = Self.segment(Self.nestedObjects(depth: JWT.maximumDepth + 1))
        #expect(throws: JWTError.tooDeep(part: "header", limit: JWT.maximumDepth)) {
            try JWT.decode("\(header).\(Self.segment("{}")).c2ln")
        }
    }

    @Test func nestingUpToTheLimitDecodes() throws {
        let claims = try JWT.decode(Self.token(payload: Self.nestedObjects(depth: JWT.maximumDepth)))
        var value = JSONValue.object(claims.all)
        var depth = 0
        while case .object(let object) = value {
            depth += 1
            value = object["a"] ?? .null
        }
        #expect(depth == JWT.maximumDepth)
        #expect(throws: JWTError.tooDeep(part: "payload", limit: JWT.maximumDepth)) {
            try JWT.decode(Self.token(payload: Self.nestedObjects(depth: JWT.maximumDepth + 1)))
        }
    }

    @Test func aFlatTokenJustUnderTheSizeLimitDecodes() throws {
        let prefix = "\(Self.header)."
        let suffix = ".c2ln"
        // Unpadded base64url of n bytes is ceil(4n/3) characters; add members while the token fits.
        func encodedLength(_ count: Int) -> Int { (count * 4 + 2) / 3 }
        let budget = JWT.maximumTokenSize - prefix.utf8.count - suffix.utf8.count
        var members: [String] = []
        var length = 2  // {}
        var index = 0
        while true {
            let member = #""k\#(String(format: "%05d", index))":\#(index)"#
            let next = length + member.utf8.count + (members.isEmpty ? 0 : 1)
            if encodedLength(next) > budget { break }
            members.append(member)
            length = next
            index += 1
        }
        let json = "{" + members.joined(separator: ",") + "}"
        let token = prefix + Self.segment(json) + suffix
        #expect(token.utf8.count <= JWT.maximumTokenSize)
        #expect(token.utf8.count > JWT.maximumTokenSize - 64)
        let claims = try JWT.decode(token)
        #expect(claims.all.count == index)
        #expect(claims.all["k00007"] == .number(7))
    }

    @Test func aTokenOverTheSizeLimitIsRefused() {
        let json = #"{"pad":""# + String(repeating: "x", count: JWT.maximumTokenSize) + #""}"#
        let token = Self.token(payload: json)
        #expect(throws: JWTError.tooLarge(limit: JWT.maximumTokenSize)) { try JWT.decode(token) }
        #expect(!JWTError.tooLarge(limit: JWT.maximumTokenSize).description.contains("xxx"))
    }

    @Test func duplicateClaimNamesAreRejected() {
        let token = Self.token(payload: #"{"exp":1,"sub":"a","exp":2}"#)
        #expect(throws: JWTError.duplicateMember(part: "payload")) { try JWT.decode(token) }
        #expect(!JWTError.duplicateMember(part: "payload").description.contains("exp"))
        let nested = Self.token(payload: #"{"x":{"k":1,"k":1}}"#)
        #expect(throws: JWTError.duplicateMember(part: "payload")) { try JWT.decode(nested) }
        let header = Self.segment(#"{"alg":"HS256","alg":"none"}"#)
        #expect(throws: JWTError.duplicateMember(part: "header")) { try JWT.decode("\(header).\(Self.segment("{}")).c2ln") }
    }

    @Test func sameNameInDifferentObjectsIsFine() throws {
        let claims = try JWT.decode(Self.token(payload: #"{"k":{"k":1},"j":{"k":2}}"#))
        #expect(claims.all["j"] == .object(["k": .number(2)]))
    }

    static let payload = segment(#"{"sub":"u1"}"#) // eyJzdWIiOiJ1MSJ9, no padding needed

    @Test(arguments: [
        // Data after padding.
        ("\(header).eyJzdWIiOiJ1MSJ9=e30.c2ln", "payload"),
        ("\(header).e30=eyJ9.c2ln", "payload"),
        ("\(header).\(payload).c2ln=AAAA", "signature"),
        // Padding alone: base64url in a JWS has none (RFC 7515 §2).
        ("\(header).e30=.c2ln", "payload"),
        ("\(header).\(payload).c2k=", "signature"),
        ("\(header)==.\(payload).c2ln", "header"),
        // Standard-base64 characters.
        ("\(header).\(payload).ab+/", "signature"),
        ("\(header).\(segment(#"{"s":"?>?"}"#).replacingOccurrences(of: "_", with: "/")).c2ln", "payload"),
        ("\(header).\(segment(#"{"s":">>>"}"#).replacingOccurrences(of: "-", with: "+")).c2ln", "payload"),
        // Whitespace and non-canonical trailing bits ("e31" would also decode to "{}").
        ("\(header).e3 0.c2ln", "payload"),
        ("\(header).e31.c2ln", "payload"),
    ])
    func nonBase64URLSegmentsAreRejected(token: String, part: String) {
        #expect(throws: JWTError.invalidBase64(part: part)) { try JWT.decode(token) }
    }

    @Test func base64URLDecodeIsStrict() {
        #expect(JWT.base64URLDecode("e30") == Data("{}".utf8))
        #expect(JWT.base64URLDecode("") == Data())
        #expect(JWT.base64URLDecode("Pz8_") == Data("??\u{3F}".utf8))
        #expect(JWT.base64URLDecode("Pj4-") == Data(">>>".utf8))
        #expect(JWT.base64URLDecode("e30=") == nil)
        #expect(JWT.base64URLDecode("Pz8/") == nil)
        #expect(JWT.base64URLDecode("Pj4+") == nil)
        #expect(JWT.base64URLDecode("e") == nil)
    }

    @Test func largeIntegerClaimsKeepTheirExactValue() throws {
        let claims = try JWT.decode(Self.token(payload: #"{"n":9007199254740993,"m":-9007199254740993,"max":9223372036854775807,"small":42}"#))
        #expect(claims.all["n"] == .integer(9_007_199_254_740_993))
        #expect(claims.all["n"]?.int64Value == 9_007_199_254_740_993)
        #expect(claims.all["m"]?.int64Value == -9_007_199_254_740_993)
        #expect(claims.all["max"]?.int64Value == .max)
        #expect(claims.all["small"] == .number(42))
        #expect(claims.all["small"]?.int64Value == 42)
        #expect(claims.all["small"]?.doubleValue == 42)
    }

    @Test func numericDateClaimsStillWorkIncludingFractionsAndLargeIntegers() throws {
        let claims = try JWT.decode(Self.token(payload: #"{"exp":1300819380.5,"iat":1.3e9,"nbf":-1,"big":1e3}"#))
        #expect(claims.expiresAt == Date(timeIntervalSince1970: 1_300_819_380.5))
        #expect(claims.issuedAt == Date(timeIntervalSince1970: 1_300_000_000))
        #expect(claims.notBefore == Date(timeIntervalSince1970: -1))
        #expect(claims.all["big"] == .number(1000))
        let far = try JWT.decode(Self.token(payload: #"{"exp":9007199254740993}"#))
        // 9007199254740993 read as a Double is 2^53, 9007199254740992.
        #expect(far.expiresAt == Date(timeIntervalSince1970: 9_007_199_254_740_992))
    }

    @Test(arguments: [
        #"{"a":01}"#, #"{"a":1.}"#, #"{"a":.5}"#, #"{"a":+1}"#, #"{"a":1e}"#, #"{"a":NaN}"#, #"{"a":1e999}"#,
        #"{"a":"\x"}"#, #"{"a":"\ud800"}"#, "{\"a\":\"\u{01}\"}", #"{"a":tru}"#, #"{"a":1,}"#, #"{,}"#,
        #"{"a":1}x"#, #"{"a" 1}"#, #"{a:1}"#, #"{"a":[1 2]}"#, #"{"a":[1,]}"#, "", "{", #"{"a":"x"#,
    ])
    func malformedJSONIsRejected(json: String) {
        #expect(throws: JWTError.invalidJSON(part: "payload")) { try JWT.decode(Self.token(payload: json)) }
    }

    @Test func validJSONEdgeCasesDecode() throws {
        let claims = try JWT.decode(Self.token(payload: " {\t\"s\" : \"a\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00é\" ,\r\n\"z\":-0.0e+1,\"e\":[],\"o\":{},\"t\":true,\"f\":false,\"n\":null} "))
        #expect(claims.all["s"] == .string("a\"\\/\u{8}\u{c}\n\r\té😀é"))
        #expect(claims.all["z"] == .number(-0.0))
        #expect(claims.all["e"] == .array([]))
        #expect(claims.all["o"] == .object([:]))
        #expect(claims.all["t"] == .bool(true))
        #expect(claims.all["f"] == .bool(false))
        #expect(claims.all["n"] == .null)
    }

    @Test func jsonValueCodableStillRoundTrips() throws {
        let value = JSONValue.object(["i": .integer(9_007_199_254_740_993), "d": .number(1.5), "a": .array([.null, .bool(true), .string("s")])])
        let data = try JSONEncoder().encode(value)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("9007199254740993"))
        #expect(try JSONDecoder().decode(JSONValue.self, from: data) == value)
    }
}
