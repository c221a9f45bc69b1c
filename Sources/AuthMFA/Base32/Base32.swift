// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// Base32 encoding and decoding (RFC 4648 §6), the form OTP secrets take in apps and URIs.
///
/// Decoding is forgiving about presentation: any case, with or without `=` padding, spaces
/// and hyphens ignored (`jbsw y3dp-ehpk 3pxp`). It is strict about content: other characters,
/// impossible lengths and misplaced padding give a typed ``MFAError``. Unused low bits of the
/// last character are ignored.
///
/// ```swift
/// print(Base32.encode(Array("12345678901234567890".utf8)))   // "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"
/// let bytes = try Base32.decode("gezd gnbv gy3t qojq")
/// ```
public enum Base32 {
    private static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

    /// Maps an ASCII byte to its 5-bit value, or 0xFF.
    private static let decodeTable: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (value, character) in alphabet.enumerated() {
            table[Int(character)] = UInt8(value)
            if character >= UInt8(ascii: "A"), character <= UInt8(ascii: "Z") {
                table[Int(character + 32)] = UInt8(value)  // lowercase
            }
        }
        return table
    }()

    /// Encodes `bytes` in upper-case base32.
    ///
    /// - Parameters:
    ///   - bytes: The data.
    ///   - padding: Whether to pad with `=` to a multiple of 8 characters (default true).
    public static func encode(_ bytes: some Collection<UInt8>, padding: Bool = true) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 4) / 5 * 8)
        var buffer: UInt64 = 0
        var bits = 0
        for byte in bytes {
            buffer = (buffer << 8) | UInt64(byte)
            bits += 8
            while bits >= 5 {
                bits -= 5
                output.append(alphabet[Int((buffer >> UInt64(bits)) & 0x1F)])
            }
        }
        if bits > 0 {
            output.append(alphabet[Int((buffer << UInt64(5 - bits)) & 0x1F)])
        }
        if padding {
            while output.count % 8 != 0 { output.append(UInt8(ascii: "=")) }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes base32 text.
    ///
    /// - Parameter text: Base32 in any case, padded or not; spaces, tabs, line breaks and
    ///   hyphens are ignored.
    /// - Returns: The bytes.
    /// - Throws: ``MFAError`` for an invalid character, length or padding.
    public static func decode(_ text: String) throws(MFAError) -> [UInt8] {
        var values: [UInt8] = []
        values.reserveCapacity(text.utf8.count)
        var paddingCount = 0
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "-"), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                continue
            case UInt8(ascii: "="):
                paddingCount += 1
            default:
                let value = decodeTable[Int(byte)]
                guard value != 0xFF else {
                    throw MFAError(code: .invalidCharacter, message: "invalid base32 character at position \(values.count + paddingCount); only A–Z and 2–7 are allowed", position: values.count + paddingCount)
                }
                guard paddingCount == 0 else {
                    throw MFAError(code: .invalidPadding, message: "'=' padding may only appear at the end", position: values.count + paddingCount - 1)
                }
                values.append(value)
            }
        }
        try checkLength(characters: values.count, padding: paddingCount)
        var output: [UInt8] = []
        output.reserveCapacity(values.count * 5 / 8)
        var buffer: UInt64 = 0
        var bits = 0
        for value in values {
            buffer = (buffer << 5) | UInt64(value)
            bits += 5
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: buffer >> UInt64(bits)))
            }
        }
        return output
    }

    /// Checks that `characters` data characters and `padding` `=` signs can be valid base32.
    private static func checkLength(characters: Int, padding: Int) throws(MFAError) {
        // A final group of 2, 4, 5 or 7 characters encodes 1, 2, 3 or 4 bytes; 1, 3 or 6 cannot.
        let remainder = characters % 8
        guard remainder != 1, remainder != 3, remainder != 6 else {
            throw MFAError(code: .invalidLength, message: "\(characters) base32 characters cannot encode whole bytes (a final group has 2, 4, 5, 7 or 8 characters)")
        }
        guard padding > 0 else { return }
        let expected = remainder == 0 ? 0 : 8 - remainder
        guard padding == expected else {
            throw MFAError(code: .invalidPadding, message: "expected \(expected) '=' padding characters after \(characters) characters, found \(padding)", position: characters)
        }
    }
}
