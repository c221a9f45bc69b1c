// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// One recovery code: 8 characters of Crockford's base32 alphabet, shown as `xxxx-xxxx`.
///
/// Each code carries 40 random bits. The alphabet (`0–9`, `a–z` without `i`, `l`, `o`, `u`)
/// avoids look-alikes; typed input is normalized: case is ignored, spaces and hyphens are
/// dropped, `o` reads as `0` and `i`/`l` as `1`.
///
/// ``description`` and `dump()` never show the code; ``formatted`` does, for showing it to the
/// user once.
///
/// ```swift
/// let codes = RecoveryCode.generate()          // 10 distinct codes
/// print(codes.map(\.formatted))                // ["7k3m-q9x2", …]
/// print(RecoveryCode(normalizing: "7K3M Q9X2")?.formatted ?? "not a code")   // "7k3m-q9x2"
/// ```
public struct RecoveryCode: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The alphabet: Crockford's base32 in lower case.
    static let alphabet: [UInt8] = Array("0123456789abcdefghjkmnpqrstvwxyz".utf8)
    /// The number of characters of a code.
    public static let length = 8
    /// The random bits of a code.
    public static let entropyBits = 40

    /// The normalized code: 8 lower-case characters without separator.
    public let normalized: String

    /// Normalizes typed input, or returns nil when it cannot be a recovery code.
    ///
    /// - Parameter input: What the user typed (any case, spaces and hyphens allowed).
    public init?(normalizing input: String) {
        var characters: [UInt8] = []
        for byte in input.utf8 {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "-"), UInt8(ascii: "\t"): continue
            default: break
            }
            guard characters.count < Self.length else { return nil }
            var lower = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
            switch lower {
            case UInt8(ascii: "o"): lower = UInt8(ascii: "0")
            case UInt8(ascii: "i"), UInt8(ascii: "l"): lower = UInt8(ascii: "1")
            default: break
            }
            guard Self.alphabet.contains(lower) else { return nil }
            characters.append(lower)
        }
        guard characters.count == Self.length else { return nil }
        normalized = String(decoding: characters, as: UTF8.self)
    }

    /// The code grouped for display: `xxxx-xxxx`. Reveals the code.
    public var formatted: String {
        "\(normalized.prefix(4))-\(normalized.dropFirst(4))"
    }

    /// `count` distinct new codes from the system's CSPRNG.
    ///
    /// - Parameter count: How many (default 10); zero or less gives none.
    public static func generate(count: Int = 10) -> [RecoveryCode] {
        var codes: [RecoveryCode] = []
        var seen: Set<String> = []
        while codes.count < max(0, count) {
            let random = SecureRandom.bytes(count: 5)  // 40 bits, 5 per character
            var value = random.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            var characters = [UInt8](repeating: 0, count: length)
            for index in (0..<length).reversed() {
                characters[index] = alphabet[Int(value & 0x1F)]
                value >>= 5
            }
            let text = String(decoding: characters, as: UTF8.self)
            if seen.insert(text).inserted, let code = RecoveryCode(normalizing: text) {
                codes.append(code)
            }
        }
        return codes
    }

    /// `RecoveryCode(redacted)`.
    public var description: String { "RecoveryCode(\(Redacted.marker))" }
    /// The same as ``description``.
    public var debugDescription: String { description }
    /// A mirror without the code.
    public var customMirror: Mirror {
        Mirror(self, children: ["normalized": Redacted.marker], displayStyle: .struct)
    }
}
