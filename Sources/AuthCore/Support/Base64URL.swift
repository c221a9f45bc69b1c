// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

package import Foundation

/// Base64url without padding (RFC 4648 §5; RFC 7515 §2, RFC 7636 Appendix A): the one
/// implementation JWT segments, PKCE challenges, DPoP proofs and thumbprints and random tokens
/// are written and read with, within this package only.
///
/// The alphabet is `A-Z a-z 0-9 - _`; there is never `=` padding. For example the bytes of
/// `??>` encode as `Pz8-`, which decodes back to them, while `Pz8+` (standard base64) and
/// `Pz8-=` (padded) decode to nil.
package enum Base64URL {
    /// `bytes` as unpadded base64url: `ceil(4n / 3)` characters for `n` bytes.
    package static func encode(_ bytes: some Sequence<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.underestimatedCount * 4 + 2) / 3)
        var bits: UInt32 = 0
        var bitCount = 0
        for byte in bytes {
            bits = bits << 8 | UInt32(byte)
            bitCount += 8
            while bitCount >= 6 {
                bitCount -= 6
                out.append(character(UInt8(truncatingIfNeeded: bits >> bitCount) & 0x3F))
            }
            bits &= (1 << bitCount) - 1
        }
        if bitCount > 0 {
            // The last 2 or 4 bits, padded with zero bits to a whole character.
            out.append(character(UInt8(truncatingIfNeeded: bits << (6 - bitCount)) & 0x3F))
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes of unpadded base64url `text`; nil when the text is anything else.
    ///
    /// Strict, so that each byte string has exactly one accepted spelling: refuses `=` padding,
    /// the standard-base64 characters `+` and `/`, whitespace and any other character outside
    /// the alphabet, a length of 1 modulo 4, and non-zero unused bits in the last character.
    /// The empty text is the empty data.
    package static func decode(_ text: some StringProtocol) -> Data? {
        decode(utf8: text.utf8)
    }

    /// The bytes of unpadded base64url text given as its UTF-8 bytes (a segment of a token read
    /// as bytes); nil when the text is anything else, as ``decode(_:)``.
    package static func decode(utf8 text: some Collection<UInt8>) -> Data? {
        // Read in place when the bytes are contiguous (a native string, an array): stepping
        // through a substring's UTF-8 view a byte at a time cost as much as the decoding itself.
        if let decoded = text.withContiguousStorageIfAvailable(decode(contiguous:)) { return decoded }
        return Array(text).withUnsafeBufferPointer(decode(contiguous:))
    }

    private static func decode(contiguous utf8: UnsafeBufferPointer<UInt8>) -> Data? {
        guard utf8.count % 4 != 1 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count / 4 * 3 + 2)
        var bits: UInt32 = 0
        var bitCount = 0
        for character in utf8 {
            let sextet: UInt8
            switch character {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): sextet = character - UInt8(ascii: "A")
            case UInt8(ascii: "a")...UInt8(ascii: "z"): sextet = character - UInt8(ascii: "a") + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): sextet = character - UInt8(ascii: "0") + 52
            case UInt8(ascii: "-"): sextet = 62
            case UInt8(ascii: "_"): sextet = 63
            default: return nil
            }
            bits = bits << 6 | UInt32(sextet)
            bitCount += 6
            if bitCount >= 8 {
                bitCount -= 8
                bytes.append(UInt8(truncatingIfNeeded: bits >> bitCount))
                bits &= (1 << bitCount) - 1
            }
        }
        guard bits == 0 else { return nil }
        return Data(bytes)
    }

    /// The alphabet character of a 6-bit value.
    private static func character(_ sextet: UInt8) -> UInt8 {
        switch sextet {
        case 0..<26: UInt8(ascii: "A") + sextet
        case 26..<52: UInt8(ascii: "a") + sextet - 26
        case 52..<62: UInt8(ascii: "0") + sextet - 52
        case 62: UInt8(ascii: "-")
        default: UInt8(ascii: "_")
        }
    }
}
