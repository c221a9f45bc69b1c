import AuthCore
import Foundation

/// Appending the pieces of canonical strings (percent-encoding, hex) to one byte buffer.
///
/// The signers build what they sign as bytes, never as intermediate strings: percent-escapes
/// decode to the bytes they stand for, whether or not those bytes are UTF-8, so `%FF` is signed
/// as `%FF` and never as an encoded U+FFFD.
extension Array where Element == UInt8 {
    /// Appends `byte` as `%XX` with upper-case hex digits.
    @inline(__always)
    mutating func appendEscape(_ byte: UInt8) {
        append(UInt8(ascii: "%"))
        append(CanonicalBytes.upperHex(byte >> 4))
        append(CanonicalBytes.upperHex(byte & 0x0F))
    }

    /// Appends `byte` as it is when it is unreserved (or `/` when `keepingSlash`), else as `%XX`.
    @inline(__always)
    mutating func appendEncoded(_ byte: UInt8, keepingSlash: Bool = false) {
        if CanonicalBytes.isUnreserved(byte) || (keepingSlash && byte == UInt8(ascii: "/")) {
            append(byte)
        } else {
            appendEscape(byte)
        }
    }

    /// Appends every byte of `bytes` RFC 3986-encoded (see ``appendEncoded(_:keepingSlash:)``).
    mutating func appendEncoding(of bytes: some Sequence<UInt8>, keepingSlash: Bool = false) {
        for byte in bytes { appendEncoded(byte, keepingSlash: keepingSlash) }
    }

    /// Decodes the `%XX` escapes of `bytes` and appends the result RFC 3986-encoded: the
    /// canonical form of an already encoded URL component. A `%` not followed by two hex digits
    /// stands for itself (and is encoded as `%25`); `+` is a literal plus.
    mutating func appendReencoding(of bytes: UnsafeBufferPointer<UInt8>) {
        var index = 0
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < count,
               let high = CanonicalBytes.hexValue(bytes[index + 1]), let low = CanonicalBytes.hexValue(bytes[index + 2]) {
                appendEncoded(high << 4 | low)
                index += 3
            } else {
                appendEncoded(byte)
                index += 1
            }
        }
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
    /// Whether `byte` is an RFC 3986 unreserved character: `A-Z a-z 0-9 - . _ ~`.
    @inline(__always)
    static func isUnreserved(_ byte: UInt8) -> Bool { URIBytes.isUnreserved(byte) }

    /// The value of a hex digit, either case.
    @inline(__always)
    static func hexValue(_ byte: UInt8) -> UInt8? { URIBytes.hexValue(byte) }

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
