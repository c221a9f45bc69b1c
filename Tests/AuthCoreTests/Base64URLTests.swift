// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthTesting
import Foundation
import Testing

/// The package's one base64url implementation (RFC 4648 §5, unpadded), which JWT segments,
/// PKCE, DPoP and the test server's tokens are written and read with.
@Suite struct Base64URLTests {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")

    /// Foundation's padded standard base64, translated character by character: an independent
    /// oracle for the encoder.
    static func oracle(_ bytes: [UInt8]) -> String {
        String(Data(bytes).base64EncodedString().compactMap { character -> Character? in
            switch character {
            case "=": nil
            case "+": "-"
            case "/": "_"
            default: character
            }
        })
    }

    @Test func randomBytesOfEveryLengthUpTo64RoundTrip() {
        var random = SeededRandom(seed: 4648)
        for length in 0...64 {
            for _ in 0..<8 {
                let bytes = (0..<length).map { _ in UInt8.random(in: .min ... .max, using: &random) }
                let text = Base64URL.encode(bytes)
                #expect(text == Self.oracle(bytes), "length \(length)")
                #expect(text.count == (4 * length + 2) / 3, "length \(length)")
                #expect(text.allSatisfy(Self.alphabet.contains), "length \(length)")
                #expect(Base64URL.decode(text) == Data(bytes), "length \(length)")
                #expect(Base64URL.decode(text[...]) == Data(bytes), "length \(length)")
                #expect(JWT.base64URLDecode(text[...]) == Data(bytes), "length \(length)")
                // As bytes: in place (a slice of an array), and from a collection read element by element.
                #expect(Base64URL.decode(utf8: Array(("." + text).utf8).dropFirst()) == Data(bytes), "length \(length)")
                #expect(Base64URL.decode(utf8: text.utf8.lazy.map { $0 }) == Data(bytes), "length \(length)")
                #expect(Base64URL.encode(Data(bytes)) == text && Base64URL.encode(bytes[...]) == text)
            }
        }
    }

    @Test func knownValues() {
        #expect(Base64URL.encode([UInt8]()) == "")
        #expect(Base64URL.encode(Data("{}".utf8)) == "e30")
        #expect(Base64URL.encode(Data("??>".utf8)) == "Pz8-")
        #expect(Base64URL.encode(Data("???".utf8)) == "Pz8_")
        #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8")
        #expect(Base64URL.decode("") == Data())
        #expect(Base64URL.decode("e30") == Data("{}".utf8))
        #expect(Base64URL.decode("-_8") == Data([0xFB, 0xFF]))
    }

    @Test(arguments: [
        "e30=", "YQ==", "YQ=", "YWI=", "=", "====",          // padding
        "Pz8/", "Pj4+", "+w", "/w", "YW+i",                 // the standard alphabet
        " e30", "e30 ", "e3 0", "e3\n0", "e30\t", "e3\r\n0", // whitespace
        "e", "e30Pz", "AAAAA", "e30Pz8-Yx",                 // length 1 mod 4
        "e31", "YR", "YW J", "e3.0", "e3%30", "ÿÿÿÿ", "e3\u{0}0", // trailing bits, other characters
    ])
    func nonCanonicalTextIsRefused(text: String) {
        #expect(Base64URL.decode(text) == nil)
        #expect(JWT.base64URLDecode(text[...]) == nil)
        #expect(Base64URL.decode(utf8: Array(text.utf8)[...]) == nil)
        #expect(Base64URL.decode(utf8: text.utf8.lazy.map { $0 }) == nil)
    }

    /// Every character outside the alphabet is refused wherever it stands.
    @Test func everyOtherCharacterIsRefused() {
        for scalar in (0..<0x100).compactMap(Unicode.Scalar.init) + ["é", "😀", "\u{FEFF}"] {
            let character = Character(scalar)
            guard !Self.alphabet.contains(character) else { continue }
            for text in ["\(character)AAA", "A\(character)AA", "AAA\(character)", "AAAAAA\(character)"] {
                #expect(Base64URL.decode(text) == nil, "\(text.debugDescription)")
            }
        }
    }

    /// Each byte string has exactly one accepted spelling: over all two- and three-character
    /// texts, the decoder accepts exactly those the encoder writes.
    @Test func acceptedTextsAreExactlyTheCanonicalOnes() {
        var accepted = 0
        for first in Self.alphabet {
            for second in Self.alphabet {
                let pair = String([first, second])
                if let bytes = Base64URL.decode(pair) {
                    accepted += 1
                    #expect(Base64URL.encode(bytes) == pair)
                }
                for third in Self.alphabet.prefix(5) + Self.alphabet.suffix(5) {
                    let triple = pair + String(third)
                    if let bytes = Base64URL.decode(triple) { #expect(Base64URL.encode(bytes) == triple) }
                }
            }
        }
        #expect(accepted == 256)
    }
}
