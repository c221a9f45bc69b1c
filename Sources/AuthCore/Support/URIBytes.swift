// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// The byte classes of RFC 3986 URI components, shared by the modules that encode, decode or sign
/// them (signing, the transport, otpauth URIs), within this package only.
package enum URIBytes {
    /// Whether `byte` is an RFC 3986 unreserved character: `A-Z a-z 0-9 - . _ ~`.
    @inlinable
    package static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    /// The value of a hex digit of either case.
    @inlinable
    package static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Calls `body` with each byte `bytes` stands for: a `%XX` escape as the byte it encodes, any
    /// other byte (a `%` not followed by two hex digits too) as itself. The bytes may not be UTF-8.
    @inlinable
    package static func forEachPercentDecoded(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (UInt8) -> Void) {
        var index = 0
        let count = bytes.count
        while index < count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < count,
               let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) {
                body(high << 4 | low)
                index += 3
            } else {
                body(bytes[index])
                index += 1
            }
        }
    }

    /// `bytes` with each `%XX` escape decoded (see ``forEachPercentDecoded(_:_:)``).
    package static func percentDecoded(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        forEachPercentDecoded(bytes) { out.append($0) }
        return out
    }
}
