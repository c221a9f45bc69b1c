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

/// The package's one percent-encoder and form decoder (`FormURLEncoding`) and its variants.
@Suite struct FormURLEncodingTests {
    /// Text over ASCII (controls included) and some non-ASCII scalars, byte order mark and
    /// replacement character among them.
    static func randomText(_ random: inout SeededRandom) -> String {
        let extra: [Unicode.Scalar] = ["é", "ß", "€", "中", "😀", "\u{FEFF}", "\u{FFFD}", "\u{85}", "\u{2028}"]
        let count = Int.random(in: 0...12, using: &random)
        var scalars = String.UnicodeScalarView()
        for _ in 0..<count {
            if Int.random(in: 0..<4, using: &random) == 0 {
                scalars.append(extra.randomElement(using: &random)!)
            } else {
                scalars.append(Unicode.Scalar(UInt8.random(in: 0...127, using: &random)))
            }
        }
        return String(scalars)
    }

    @Test func theFormSerializerWritesSpacesAsPlus() {
        #expect(FormURLEncoding.encode("read write") == "read+write")
        #expect(FormURLEncoding.encode("AZaz09*-._") == "AZaz09*-._")
        #expect(FormURLEncoding.encode("~+&=%/?#:") == "%7E%2B%26%3D%25%2F%3F%23%3A")
        #expect(FormURLEncoding.encode("é😀") == "%C3%A9%F0%9F%98%80")
        #expect(FormURLEncoding.query([("a b", "c&d"), ("e", "")]) == "a+b=c%26d&e=")
        #expect(FormURLEncoding.encode("read write") == FormURLEncoding.encode("read write", keeping: .form, spaceAs: .plus))
    }

    @Test(arguments: [
        (FormURLEncoding.KeptBytes.form, FormURLEncoding.SpaceEncoding.plus, "a+b%7E*-._%2B%2F%C3%A9"),
        (.form, .percent20, "a%20b%7E*-._%2B%2F%C3%A9"),
        (.unreserved, .percent20, "a%20b~%2A-._%2B%2F%C3%A9"),
        (.unreserved, .plus, "a+b~%2A-._%2B%2F%C3%A9"),
    ])
    func variantsDifferOnlyInTheKeptBytesAndTheSpace(kept: FormURLEncoding.KeptBytes, space: FormURLEncoding.SpaceEncoding, expected: String) {
        #expect(FormURLEncoding.encode("a b~*-._+/é", keeping: kept, spaceAs: space) == expected)
    }

    /// Byte for byte what the implementations it replaced wrote: Foundation's
    /// `addingPercentEncoding` with the form set (space then `+`) or the unreserved set, and
    /// RFC 9421's form set with `%20`.
    @Test func variantsMatchThePreviousEncoders() {
        let form = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._*")
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        var random = SeededRandom(seed: 1866)
        for _ in 0..<2_000 {
            let text = Self.randomText(&random)
            let plus = text.addingPercentEncoding(withAllowedCharacters: form.union(CharacterSet(charactersIn: " ")))?.replacingOccurrences(of: " ", with: "+")
            #expect(FormURLEncoding.encode(text, keeping: .form, spaceAs: .plus) == plus, "\(text.debugDescription)")
            #expect(FormURLEncoding.encode(text, keeping: .form, spaceAs: .percent20) == text.addingPercentEncoding(withAllowedCharacters: form), "\(text.debugDescription)")
            #expect(FormURLEncoding.encode(text, keeping: .unreserved, spaceAs: .percent20) == text.addingPercentEncoding(withAllowedCharacters: unreserved), "\(text.debugDescription)")
        }
    }

    /// (A leading byte order mark is left out: Foundation's decoder drops it.)
    @Test func everyVariantRoundTripsThroughTheDecoder() {
        var random = SeededRandom(seed: 3986)
        for _ in 0..<2_000 {
            let text = Self.randomText(&random)
            guard !text.unicodeScalars.starts(with: ["\u{FEFF}"]) else { continue }
            for kept in [FormURLEncoding.KeptBytes.form, .unreserved] {
                for space in [FormURLEncoding.SpaceEncoding.plus, .percent20] {
                    #expect(FormURLEncoding.decode(FormURLEncoding.encode(text, keeping: kept, spaceAs: space)) == text, "\(text.debugDescription)")
                }
            }
        }
    }

    @Test func theDecoderReadsPlusAsASpaceAndRefusesMalformedEscapes() {
        #expect(FormURLEncoding.decode("a+b%20c") == "a b c")
        #expect(FormURLEncoding.decode("%2B%7e~*") == "+~~*")
        #expect(FormURLEncoding.decode("%C3%A9"[...]) == "é")
        #expect(FormURLEncoding.decode("") == "")
        for malformed in ["%", "%2", "a%zz", "%%41", "+%g0"] {
            #expect(FormURLEncoding.decode(malformed) == nil, "\(malformed)")
        }
    }

    @Test func itemsSplitOnAmpersandThenOnTheFirstEquals() {
        let items = FormURLEncoding.items("a=1&&b&c=x=y&=z&d=&")
        #expect(items.map { String($0.name) } == ["a", "b", "c", "", "d"])
        #expect(items.map { $0.value.map(String.init) } == ["1", nil, "x=y", "z", ""])
        #expect(FormURLEncoding.items("").isEmpty)
    }
}
