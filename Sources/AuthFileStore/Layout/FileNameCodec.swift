// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// Turns one key component (namespace, account or item) into a file name and back.
///
/// The scheme, chosen so that no name can escape the store's directory, collide with another
/// name, or depend on the file system's case or Unicode handling:
/// - The name is first put in Unicode NFC, so that canonically equal strings (which Swift's
///   `String ==` and so `CredentialKey` treat as equal) share one file.
/// - Up to ``spelledOutLimit`` UTF-8 bytes: `x` followed by the lower-case hex of the bytes
///   (`""` → `x`, `"Alice"` → `x416c696365`). Only `[0-9a-fx]` ever appears, so `/`, `..`, NUL
///   and case-insensitive file systems are harmless, and the name decodes without guessing.
/// - Longer: `h` followed by the lower-case hex SHA-256 of the bytes (65 characters). The
///   original name is kept inside every record file, which is where listing reads it from.
///
/// A longest spelled-out item file is `x` + 200 hex + `.rec` + a quarantine suffix, well under
/// the usual 255-byte limit of a file name. Names the store itself uses (`.lock`, `.locks`,
/// `.tmp-…`, `….corrupt-…`) start with `.` or carry a suffix, so they never decode as a component.
enum FileNameCodec {
    /// The longest component, in UTF-8 bytes after NFC, that is spelled out in hex.
    static let spelledOutLimit = 100

    /// A file name decoded back into what it stands for.
    enum Decoded: Equatable {
        /// A spelled-out name.
        case name(String)
        /// The hex SHA-256 of a long name; the name itself is in the records.
        case digest(String)
    }

    /// The form of `name` that the store files under: its NFC normalization.
    static func canonical(_ name: String) -> String {
        name.precomposedStringWithCanonicalMapping
    }

    /// The file name of a component.
    static func encode(_ name: String) -> String {
        let bytes = Array(canonical(name).utf8)
        if bytes.count <= spelledOutLimit {
            return "x" + hex(bytes)
        }
        return "h" + hex(SHA256Digest.hash(bytes))
    }

    /// What a file name stands for, or nil when it is not a component name this codec writes.
    ///
    /// Strict: only the exact output of ``encode(_:)`` decodes, so every component has one file
    /// name and every file name one component.
    static func decode(_ fileName: String) -> Decoded? {
        guard let first = fileName.first else { return nil }
        let rest = fileName.dropFirst()
        switch first {
        case "x":
            guard let bytes = unhex(rest), bytes.count <= spelledOutLimit,
                  let name = String(validating: bytes, as: UTF8.self),
                  Array(canonical(name).utf8) == bytes
            else { return nil }
            return .name(name)
        case "h":
            guard rest.count == 64, unhex(rest) != nil else { return nil }
            return .digest(String(rest))
        default:
            return nil
        }
    }

    /// Lower-case hex of `bytes`.
    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes of lower-case hex text, or nil when it is not exactly that.
    private static func unhex(_ text: Substring) -> [UInt8]? {
        let chars = Array(text.utf8)
        guard chars.count % 2 == 0 else { return nil }
        var out = [UInt8]()
        out.reserveCapacity(chars.count / 2)
        var index = 0
        while index < chars.count {
            guard let high = nibble(chars[index]), let low = nibble(chars[index + 1]) else { return nil }
            out.append(high << 4 | low)
            index += 2
        }
        return out
    }

    private static func nibble(_ char: UInt8) -> UInt8? {
        switch char {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): char - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): char - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
