// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Foundation

/// Appending the pieces of canonical strings (percent-encoding, hex) to one byte buffer.
///
/// The signers build what they sign as bytes, never as intermediate strings: percent-escapes
/// decode to the bytes they stand for, whether or not those bytes are UTF-8, so `%FF` is signed
/// as `%FF` and never as an encoded U+FFFD.
extension Array where Element == UInt8 {
    /// Appends `byte` as it is when it is unreserved (or `/` when `keepingSlash`), else as `%XX`.
    @inline(__always)
    mutating func appendEncoded(_ byte: UInt8, keepingSlash: Bool = false) {
        CanonicalBytes.encode(byte, keepingSlash: keepingSlash) { append($0) }
    }

    /// Appends every byte of `bytes` RFC 3986-encoded (see ``appendEncoded(_:keepingSlash:)``).
    mutating func appendEncoding(of bytes: some Sequence<UInt8>, keepingSlash: Bool = false) {
        for byte in bytes { appendEncoded(byte, keepingSlash: keepingSlash) }
    }

    /// Decodes the `%XX` escapes of `bytes` and appends the result RFC 3986-encoded: the
    /// canonical form of an already encoded URL component. A `%` not followed by two hex digits
    /// stands for itself (and is encoded as `%25`); `+` is a literal plus.
    mutating func appendReencoding(of bytes: UnsafeBufferPointer<UInt8>) {
        URIBytes.forEachPercentDecoded(bytes) { appendEncoded($0) }
    }

    /// Appends the lower-case hex of a digest or MAC, read in place.
    mutating func appendLowerHex(digest: some ContiguousBytes) {
        digest.withUnsafeBytes { appendLowerHex($0) }
    }

    /// Appends the lower-case hex of `bytes`.
    mutating func appendLowerHex(_ bytes: some Sequence<UInt8>) {
        for byte in bytes {
            append(CanonicalBytes.lowerHex(byte >> 4))
            append(CanonicalBytes.lowerHex(byte & 0x0F))
        }
    }

    /// Appends the lower-case hex of the bytes at `buffer`: written on the stack, copied once.
    mutating func appendLowerHex(_ buffer: UnsafeRawBufferPointer) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 2 * buffer.count) { hex in
            var index = 0
            for byte in buffer {
                hex.initializeElement(at: index, to: CanonicalBytes.lowerHex(byte >> 4))
                hex.initializeElement(at: index + 1, to: CanonicalBytes.lowerHex(byte & 0x0F))
                index += 2
            }
            append(contentsOf: UnsafeBufferPointer(hex))
        }
    }

    /// Appends the UTF-8 bytes of `text`.
    @inline(__always)
    mutating func appendUTF8(_ text: String) {
        var text = text
        text.withUTF8 { append(contentsOf: $0) }
    }
}

/// Byte classes and digits shared by the canonical forms.
enum CanonicalBytes {
    /// Emits `byte` as it is when it is unreserved (or `/` when `keepingSlash`), else as `%XX`
    /// with upper-case hex digits (RFC 3986 §2.1).
    @inline(__always)
    static func encode(_ byte: UInt8, keepingSlash: Bool = false, _ emit: (UInt8) -> Void) {
        if URIBytes.isUnreserved(byte) || (keepingSlash && byte == UInt8(ascii: "/")) {
            emit(byte)
        } else {
            emit(UInt8(ascii: "%"))
            emit(upperHex(byte >> 4))
            emit(upperHex(byte & 0x0F))
        }
    }

    @inline(__always)
    static func upperHex(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") + nibble - 10
    }

    @inline(__always)
    static func lowerHex(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }

    /// Runs `body` over the UTF-8 bytes of `text`, without copying when it is native.
    @inline(__always)
    static func withBytes<T>(of text: some StringProtocol, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T {
        if let result = try text.utf8.withContiguousStorageIfAvailable(body) { return result }
        let copy = Array(text.utf8)
        return try copy.withUnsafeBufferPointer(body)
    }
}
