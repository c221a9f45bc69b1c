// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// An HMAC-based one-time password generator (RFC 4226).
///
/// Codes are zero-padded decimal strings of 6 to 8 digits. Verification compares codes in
/// constant time and returns the counter that matched, so that the caller can move its counter
/// past it.
///
/// ```swift
/// let hotp = try HOTP(secret: secret, digits: 6)
/// let code = hotp.code(counter: 7)                       // "162583" for the RFC secret
/// if let matched = try hotp.verify(userInput, counter: storedCounter, lookAhead: 3) {
///     storedCounter = matched + 1
/// }
/// ```
public struct HOTP: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The shared secret.
    public let secret: OTPSecret
    /// The HMAC hash function.
    public let algorithm: OTPAlgorithm
    /// The number of digits of a code, 6 to 8.
    public var digits: Int { generator.digits }

    private let generator: OTPGenerator

    /// Creates a generator; the HMAC key schedule is prepared once here.
    ///
    /// - Parameters:
    ///   - secret: The shared secret.
    ///   - algorithm: The hash function (default SHA-1).
    ///   - digits: The code length, 6 to 8 (default 6).
    /// - Throws: ``MFAError`` `.invalidDigits` for any other length.
    public init(secret: OTPSecret, algorithm: OTPAlgorithm = .sha1, digits: Int = 6) throws(MFAError) {
        self.secret = secret
        self.algorithm = algorithm
        self.generator = try OTPGenerator(secret: secret, algorithm: algorithm, digits: digits)
    }

    /// The code for `counter`, zero-padded to ``digits`` characters.
    public func code(counter: UInt64) -> String {
        generator.code(counter: counter)
    }

    /// Checks `code` against the counters `counter ... counter + lookAhead`.
    ///
    /// Every counter of the range is computed and compared (no early exit); spaces in `code` are
    /// ignored. A code of the wrong length or with other characters is rejected.
    ///
    /// - Parameters:
    ///   - code: What the user typed.
    ///   - counter: The next counter the server expects.
    ///   - lookAhead: How many further counters to accept (RFC 4226 §7.4 resynchronization),
    ///     at most ``MFAError/maximumHOTPLookAhead``.
    /// - Returns: The lowest matching counter, or nil.
    /// - Throws: ``MFAError`` `.invalidPolicy` for a longer look-ahead.
    public func verify(_ code: String, counter: UInt64, lookAhead: UInt64 = 0) throws(MFAError) -> UInt64? {
        try MFAError.validate(lookAhead: lookAhead)
        let (last, overflow) = counter.addingReportingOverflow(lookAhead)
        let range = counter...(overflow ? UInt64.max : last)
        var matched: UInt64?
        _ = generator.withNormalizedCode(code) { digits in
            for candidate in range where generator.matches(digits, counter: candidate) {
                if matched == nil { matched = candidate }
            }
        }
        return matched
    }

    /// `HOTP(SHA1, 6 digits, secret: redacted)`.
    public var description: String { "HOTP(\(algorithm), \(digits) digits, secret: \(Redacted.marker))" }
    /// The same as ``description``.
    public var debugDescription: String { description }
    /// A mirror without the secret.
    public var customMirror: Mirror {
        Mirror(self, children: ["algorithm": algorithm, "digits": digits, "secret": Redacted.marker], displayStyle: .struct)
    }
}
