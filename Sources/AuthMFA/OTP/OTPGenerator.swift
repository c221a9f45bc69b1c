// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation

/// The RFC 4226 core shared by ``HOTP`` and ``TOTP``: HMAC over an 8-byte big-endian counter,
/// dynamic truncation, and constant-time comparison against a typed code.
///
/// The HMAC key schedule (key padding and the inner and outer key blocks) is computed once in
/// `init`; each code then costs one copy of that prepared state and one HMAC over an 8-byte
/// buffer on the stack.
struct OTPGenerator: Sendable {
    /// A prepared HMAC state for each algorithm.
    private enum PreparedMAC: Sendable {
        case sha1(HMAC<Insecure.SHA1>)
        case sha256(HMAC<SHA256>)
        case sha512(HMAC<SHA512>)
    }

    /// Powers of ten up to 10^8.
    private static let powersOfTen: [UInt32] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000]

    private let prepared: PreparedMAC
    /// The number of digits, 6 to 8.
    let digits: Int
    private let modulus: UInt32

    /// Prepares the HMAC key schedule for `secret`.
    init(secret: OTPSecret, algorithm: OTPAlgorithm, digits: Int) throws(MFAError) {
        try MFAError.validate(digits: digits)
        let key = SymmetricKey(data: secret.bytes)
        switch algorithm {
        case .sha1: prepared = .sha1(HMAC<Insecure.SHA1>(key: key))
        case .sha256: prepared = .sha256(HMAC<SHA256>(key: key))
        case .sha512: prepared = .sha512(HMAC<SHA512>(key: key))
        }
        self.digits = digits
        self.modulus = Self.powersOfTen[digits]
    }

    /// The code for `counter` as a number below 10^digits.
    func value(counter: UInt64) -> UInt32 {
        switch prepared {
        case .sha1(let mac): Self.truncate(mac, counter: counter) % modulus
        case .sha256(let mac): Self.truncate(mac, counter: counter) % modulus
        case .sha512(let mac): Self.truncate(mac, counter: counter) % modulus
        }
    }

    /// The code for `counter`, zero-padded to `digits` characters.
    func code(counter: UInt64) -> String {
        let value = value(counter: counter)
        return String(unsafeUninitializedCapacity: digits, initializingUTF8With: { buffer in
            for index in 0..<digits {
                buffer[index] = Self.digit(of: value, at: index, digits: digits)
            }
            return digits
        })
    }

    /// Whether `candidate` (ASCII digits, already checked to be `digits` long) is the code for
    /// `counter`. Compares every digit; no early exit.
    func matches(_ candidate: UnsafeBufferPointer<UInt8>, counter: UInt64) -> Bool {
        let value = value(counter: counter)
        var difference: UInt8 = candidate.count == digits ? 0 : 1
        for index in 0..<min(candidate.count, digits) {
            difference |= candidate[index] ^ Self.digit(of: value, at: index, digits: digits)
        }
        return difference == 0
    }

    /// Calls `body` with the ASCII digits of `code` (spaces removed), or returns false when
    /// `code` is not `digits` decimal digits.
    func withNormalizedCode(_ code: String, _ body: (UnsafeBufferPointer<UInt8>) -> Void) -> Bool {
        var buffer: (UInt64, UInt64) = (0, 0)  // 16 bytes on the stack
        return withUnsafeMutableBytes(of: &buffer) { raw in
            var count = 0
            for byte in code.utf8 where byte != UInt8(ascii: " ") {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), count < digits else { return false }
                raw[count] = byte
                count += 1
            }
            guard count == digits else { return false }
            body(UnsafeBufferPointer(start: raw.baseAddress?.assumingMemoryBound(to: UInt8.self), count: count))
            return true
        }
    }

    /// The ASCII digit at `index` (0 = most significant) of `value` written with `digits` digits.
    @inline(__always)
    private static func digit(of value: UInt32, at index: Int, digits: Int) -> UInt8 {
        UInt8(ascii: "0") + UInt8(truncatingIfNeeded: (value / powersOfTen[digits - 1 - index]) % 10)
    }

    /// HMAC of the big-endian counter, then RFC 4226 §5.3 dynamic truncation to 31 bits.
    @inline(__always)
    private static func truncate<H: HashFunction>(_ prepared: HMAC<H>, counter: UInt64) -> UInt32 {
        var mac = prepared
        var message = counter.bigEndian
        withUnsafeBytes(of: &message) { mac.update(data: $0) }
        return mac.finalize().withUnsafeBytes { digest -> UInt32 in
            let offset = Int(digest[digest.count - 1] & 0x0f)
            return (UInt32(digest[offset] & 0x7f) << 24)
                | (UInt32(digest[offset + 1]) << 16)
                | (UInt32(digest[offset + 2]) << 8)
                | UInt32(digest[offset + 3])
        }
    }
}
