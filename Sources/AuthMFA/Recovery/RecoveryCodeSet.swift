// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Crypto
public import Foundation

/// The stored form of a user's recovery codes: one salted hash per code, and when it was used.
///
/// Each code gets its own 16-byte random salt; the hash is HMAC-SHA-256 keyed with the salt
/// over the normalized code. No code is kept in plain text. Checking a code computes the hash
/// for every entry and compares each in constant time, with no early exit.
///
/// ```swift
/// var set = RecoveryCodeSet(codes: RecoveryCode.generate())
/// print(set.redeem("7k3m-q9x2", at: now))   // true once, then false
/// ```
public struct RecoveryCodeSet: Sendable, Codable, Equatable, CustomStringConvertible, CustomReflectable {
    /// One stored code.
    public struct Entry: Sendable, Codable, Equatable {
        /// The random salt, 16 bytes.
        public var salt: Data
        /// HMAC-SHA-256(key: salt, message: normalized code).
        public var hash: Data
        /// When the code was used, or nil while it is still valid.
        public var usedAt: Date?
    }

    /// The entries, in the order the codes were generated.
    public private(set) var entries: [Entry]

    /// Hashes `codes` with fresh salts.
    public init(codes: [RecoveryCode]) {
        entries = codes.map { code in
            let salt = SecureRandom.bytes(count: 16)
            return Entry(salt: Data(salt), hash: Self.hash(code, salt: salt), usedAt: nil)
        }
    }

    /// How many codes are still unused.
    public var remaining: Int { entries.lazy.filter { $0.usedAt == nil }.count }

    /// Whether `input` is an unused code of this set, without consuming it.
    public func contains(_ input: String) -> Bool {
        matchingIndex(input) != nil
    }

    /// Consumes the code `input` if it is an unused code of this set.
    ///
    /// - Parameters:
    ///   - input: What the user typed; normalized (case, spaces, hyphens, look-alikes).
    ///   - date: When it is used.
    /// - Returns: true when it matched an unused code, which is now marked used.
    public mutating func redeem(_ input: String, at date: Date) -> Bool {
        guard let index = matchingIndex(input) else { return false }
        entries[index].usedAt = date
        return true
    }

    /// The index of the unused entry matching `input`; every entry is hashed and compared.
    private func matchingIndex(_ input: String) -> Int? {
        // Malformed input is hashed as an impossible code so the work is the same.
        let candidate = RecoveryCode(normalizing: input)?.normalized ?? "!"
        var found: Int?
        for (index, entry) in entries.enumerated() {
            let mac = Self.hash(normalized: candidate, salt: entry.salt)
            let equal = ConstantTime.equals(mac, entry.hash)
            if equal, entry.usedAt == nil, found == nil { found = index }
        }
        return found
    }

    static func hash(_ code: RecoveryCode, salt: [UInt8]) -> Data {
        hash(normalized: code.normalized, salt: salt)
    }

    private static func hash<S: ContiguousBytes>(normalized: String, salt: S) -> Data {
        let mac = HMAC<SHA256>.authenticationCode(for: Data(normalized.utf8), using: SymmetricKey(data: salt))
        return Data(mac)
    }

    /// `RecoveryCodeSet(10 codes, 9 remaining)`.
    public var description: String { "RecoveryCodeSet(\(entries.count) codes, \(remaining) remaining)" }
    /// A mirror with the counts only.
    public var customMirror: Mirror {
        Mirror(self, children: ["count": entries.count, "remaining": remaining], displayStyle: .struct)
    }
}
