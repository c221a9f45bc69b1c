// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Testing
@testable import AuthMFA

@Suite struct Base32Tests {
    static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    @Test func roundTripsLengths0Through40WithAndWithoutPadding() throws {
        for length in 0...40 {
            let bytes = Self.randomBytes(length)
            let padded = Base32.encode(bytes)
            let unpadded = Base32.encode(bytes, padding: false)
            #expect(padded.count % 8 == 0, "length \(length)")
            #expect(!unpadded.contains("="))
            #expect(padded.hasPrefix(unpadded))
            #expect(try Base32.decode(padded) == bytes, "length \(length)")
            #expect(try Base32.decode(unpadded) == bytes, "length \(length)")
            #expect(try Base32.decode(unpadded.lowercased()) == bytes, "length \(length)")
        }
    }

    @Test func rfc4648TestVectors() throws {
        // RFC 4648 §10.
        let cases = [("", ""), ("f", "MY======"), ("fo", "MZXQ===="), ("foo", "MZXW6==="),
                     ("foob", "MZXW6YQ="), ("fooba", "MZXW6YTB"), ("foobar", "MZXW6YTBOI======")]
        for (plain, encoded) in cases {
            #expect(Base32.encode(Array(plain.utf8)) == encoded)
            #expect(try Base32.decode(encoded) == Array(plain.utf8))
        }
    }

    @Test func decodeIgnoresCaseSpacesAndHyphens() throws {
        let expected = Array("foobar".utf8)
        #expect(try Base32.decode("mzxw6ytboi") == expected)
        #expect(try Base32.decode("MZXW 6YTB OI") == expected)
        #expect(try Base32.decode("mzxw-6ytb-oi======") == expected)
        #expect(try Base32.decode("  MzXw6 yTbOi  ") == expected)
    }

    @Test(arguments: ["MZXW6Y!B", "MZXW6YT1", "MZXW6YT8", "MZXW0YTB", "ÄZXW6YTB"])
    func invalidCharacterIsTyped(input: String) {
        do {
            _ = try Base32.decode(input)
            Issue.record("accepted \(input)")
        } catch {
            #expect(error.code == .invalidCharacter)
            #expect(error.position != nil)
        }
    }

    @Test(arguments: ["M", "MZX", "MZXW6Y", "MZXW6YTBO"])
    func impossibleLengthIsTyped(input: String) {
        do {
            _ = try Base32.decode(input)
            Issue.record("accepted \(input)")
        } catch {
            #expect(error.code == .invalidLength)
        }
    }

    @Test(arguments: ["MZ=XW6YTB", "MY=====", "MZXW6YQ==", "MZXW6YTB========"])
    func badPaddingIsTyped(input: String) {
        do {
            _ = try Base32.decode(input)
            Issue.record("accepted \(input)")
        } catch {
            #expect(error.code == .invalidPadding)
        }
    }

    @Test func errorTextDoesNotQuoteTheInput() {
        let secretLike = "JBSWY3DPEHPK3PXP1"
        do {
            _ = try Base32.decode(secretLike)
            Issue.record("accepted")
        } catch {
            #expect(!error.description.contains("JBSWY3DP"))
        }
    }

    @Test func generatedSecretsAreRandomAndAtLeast160Bits() throws {
        let first = try OTPSecret.generate()
        let second = try OTPSecret.generate()
        #expect(first.byteCount == 20)
        #expect(first != second)
        #expect(try OTPSecret.generate(byteCount: 32).byteCount == 32)
        #expect(throws: MFAError.self) { try OTPSecret.generate(byteCount: 10) }
        #expect(try OTPSecret(base32: first.base32EncodedString()) == first)
    }
}
