// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore

/// The errors AuthMFA throws: OTP generation and configuration, base32 decoding, `otpauth://`
/// key URIs, and the MFA flow (answering a challenge, a missing enrolment).
///
/// A struct with an extensible ``Code``; compare codes: `error.code == .expiredChallenge`.
/// The message says what was wrong; it never contains a secret, a code, the base32 text nor any
/// other value taken from a key URI (a base32 error names the ``position`` of the problem).
public struct MFAError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is.
    public typealias Code = ErrorCode<MFAError>

    /// What kind of failure this is.
    public let code: Code
    /// A readable cause, free of secrets.
    public let message: String
    /// For a base32 error, the offset (in characters, after removing spaces and hyphens) where
    /// the problem is, when there is one.
    public let position: Int?

    /// Creates an error.
    public init(code: Code, message: String, position: Int? = nil) {
        self.code = code
        self.message = message
        self.position = position
    }

    /// `MFAError.code: message`.
    public var description: String { "MFAError.\(code): \(message)" }
}

extension ErrorCode where Domain == MFAError {
    // The MFA flow.

    /// The challenge expired before it was answered; sign in again.
    public static var expiredChallenge: Self { Self("expiredChallenge") }
    /// Every allowed attempt at the challenge failed; sign in again.
    public static var attemptsExhausted: Self { Self("attemptsExhausted") }
    /// None of the challenge's methods can be answered here.
    public static var noMethodAvailable: Self { Self("noMethodAvailable") }
    /// The account has no secret for the method (not enrolled).
    public static var notEnrolled: Self { Self("notEnrolled") }
    /// A record (replay record, recovery codes) kept being changed by other writers, in this
    /// process or others sharing the store, while it was being updated, and the update gave up;
    /// nothing was written, and the code was not accepted. It may pass: try again.
    public static var writeConflict: Self { Self("writeConflict") }

    // OTP generation and configuration.

    /// The number of digits is not 6, 7 or 8.
    public static var invalidDigits: Self { Self("invalidDigits") }
    /// The TOTP period is not a positive number of seconds.
    public static var invalidPeriod: Self { Self("invalidPeriod") }
    /// The secret is empty or shorter than required, or a key URI's `secret` parameter is not
    /// valid base32 or is empty.
    public static var invalidSecret: Self { Self("invalidSecret") }
    /// The time lies before the TOTP start time T0.
    public static var timeBeforeStart: Self { Self("timeBeforeStart") }
    /// The random number generator failed.
    public static var randomness: Self { Self("randomness") }
    /// A verification window (TOTP steps either side, HOTP look-ahead) or a lockout limit is
    /// out of range: a wide window accepts guessed codes, a huge one takes forever to check.
    public static var invalidPolicy: Self { Self("invalidPolicy") }

    // Base32 decoding.

    /// A character outside `A–Z`, `2–7` (any case), `=`, space and hyphen.
    public static var invalidCharacter: Self { Self("invalidCharacter") }
    /// The number of characters cannot come from encoding whole bytes.
    public static var invalidLength: Self { Self("invalidLength") }
    /// `=` padding in the middle, or the wrong amount of it.
    public static var invalidPadding: Self { Self("invalidPadding") }

    // `otpauth://` key URIs: the part of the URI that is wrong (a bad secret is `invalidSecret`).

    /// The URI does not start with `otpauth://`.
    public static var keyURIScheme: Self { Self("keyURIScheme") }
    /// The type is not `totp` or `hotp`.
    public static var keyURIType: Self { Self("keyURIType") }
    /// The label is missing, empty, badly percent-encoded, or has a bad `issuer:` prefix.
    public static var keyURILabel: Self { Self("keyURILabel") }
    /// There is no `secret` parameter.
    public static var keyURIMissingSecret: Self { Self("keyURIMissingSecret") }
    /// The `algorithm` is not SHA1, SHA256 or SHA512.
    public static var keyURIAlgorithm: Self { Self("keyURIAlgorithm") }
    /// The `digits` is not 6, 7 or 8.
    public static var keyURIDigits: Self { Self("keyURIDigits") }
    /// The `period` is not a positive whole number of seconds.
    public static var keyURIPeriod: Self { Self("keyURIPeriod") }
    /// The `counter` of an `hotp` URI is missing or not a whole number.
    public static var keyURICounter: Self { Self("keyURICounter") }
    /// The `issuer` parameter disagrees with the label's issuer prefix, or is invalid.
    public static var keyURIIssuer: Self { Self("keyURIIssuer") }
    /// A parameter is malformed (bad percent-encoding) or given twice.
    public static var keyURIParameter: Self { Self("keyURIParameter") }
}

extension MFAError {
    /// The challenge expired.
    public static func expiredChallenge() -> MFAError {
        MFAError(code: .expiredChallenge, message: "the MFA challenge has expired; sign in again")
    }
    /// All attempts failed.
    public static func attemptsExhausted(attempts: Int) -> MFAError {
        MFAError(code: .attemptsExhausted, message: "all \(attempts) attempts at the MFA challenge failed; sign in again")
    }
    /// No usable method.
    public static func noMethodAvailable(offered: [MFAMethod]) -> MFAError {
        MFAError(code: .noMethodAvailable, message: "none of the offered MFA methods (\(offered.map(\.rawValue).joined(separator: ", "))) can be answered here")
    }
    /// No secret for the method.
    public static func notEnrolled(method: MFAMethod) -> MFAError {
        MFAError(code: .notEnrolled, message: "the account is not enrolled for \(method.rawValue); enrol it first")
    }
    /// An update of a record of kind `kind` lost to other writers `attempts` times in a row.
    public static func writeConflict(kind: String, attempts: Int) -> MFAError {
        MFAError(code: .writeConflict, message: "the \(kind) record was changed by other writers during each of \(attempts) attempts to update it; nothing was written, try again")
    }
}

extension MFAError {
    /// The allowed numbers of digits of an OTP.
    public static let allowedDigits: ClosedRange<Int> = 6...8

    /// Checks a number of digits.
    static func validate(digits: Int) throws(MFAError) {
        guard allowedDigits.contains(digits) else {
            throw MFAError(code: .invalidDigits, message: "an OTP has 6, 7 or 8 digits, not \(digits)")
        }
    }

    /// The widest TOTP window, in steps either side of the current one: 10 steps are five
    /// minutes either side at the usual 30 s period (RFC 6238 §5.2 recommends one).
    public static let maximumTOTPWindow = 10
    /// The longest HOTP look-ahead, in counters (RFC 4226 §7.4 resynchronization).
    public static let maximumHOTPLookAhead: UInt64 = 100

    /// Checks a TOTP window.
    static func validate(window: Int) throws(MFAError) {
        guard (0...maximumTOTPWindow).contains(window) else {
            throw MFAError(code: .invalidPolicy, message: "a TOTP window is 0 to \(maximumTOTPWindow) steps either side, not \(window)")
        }
    }

    /// Checks an HOTP look-ahead.
    static func validate(lookAhead: UInt64) throws(MFAError) {
        guard lookAhead <= maximumHOTPLookAhead else {
            throw MFAError(code: .invalidPolicy, message: "an HOTP look-ahead is 0 to \(maximumHOTPLookAhead) counters, not \(lookAhead)")
        }
    }

    /// Checks a TOTP period.
    static func validate(period: Int) throws(MFAError) {
        guard period > 0 else {
            throw MFAError(code: .invalidPeriod, message: "the TOTP period must be a positive number of seconds, not \(period)")
        }
    }
}
