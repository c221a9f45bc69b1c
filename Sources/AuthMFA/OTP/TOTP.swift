// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Foundation

/// A time-based one-time password generator (RFC 6238).
///
/// The time step is `floor((unixTime - t0) / period)`; the code is the ``HOTP`` code of that
/// step. Verification accepts a window of steps around the current one (default ±1) and returns
/// the step that matched, which a replay guard then records.
///
/// ```swift
/// let totp = try TOTP(secret: try OTPSecret.generate())
/// let code = try totp.code(at: Date())
/// if let step = try totp.verify(userInput, at: Date()) { print("accepted for time step \(step)") }
/// ```
public struct TOTP: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The shared secret.
    public let secret: OTPSecret
    /// The HMAC hash function.
    public let algorithm: OTPAlgorithm
    /// The length of a time step in seconds (default 30).
    public let period: Int
    /// The Unix time, in seconds, at which step 0 starts (RFC 6238 `T0`, default 0).
    public let t0: Int64
    /// The number of digits of a code, 6 to 8.
    public var digits: Int { generator.digits }

    private let generator: OTPGenerator

    /// Creates a generator; the HMAC key schedule is prepared once here.
    ///
    /// - Parameters:
    ///   - secret: The shared secret.
    ///   - algorithm: The hash function (default SHA-1).
    ///   - digits: The code length, 6 to 8 (default 6).
    ///   - period: Seconds per step, positive (default 30).
    ///   - t0: Unix time of step 0 in seconds (default 0).
    /// - Throws: ``MFAError`` `.invalidDigits` or `.invalidPeriod`.
    public init(secret: OTPSecret, algorithm: OTPAlgorithm = .sha1, digits: Int = 6, period: Int = 30, t0: Int64 = 0) throws(MFAError) {
        try MFAError.validate(period: period)
        self.secret = secret
        self.algorithm = algorithm
        self.period = period
        self.t0 = t0
        self.generator = try OTPGenerator(secret: secret, algorithm: algorithm, digits: digits)
    }

    /// The time step that contains `date`.
    ///
    /// - Throws: ``MFAError`` `.timeBeforeStart` when `date` is before ``t0``.
    public func step(at date: Date) throws(MFAError) -> UInt64 {
        guard let step = stepIfValid(at: date) else {
            throw MFAError(code: .timeBeforeStart, message: "the time lies before the TOTP start time t0 (\(t0)) or out of range")
        }
        return step
    }

    /// The code for the step that contains `date`, zero-padded to ``digits`` characters.
    ///
    /// - Throws: ``MFAError`` `.timeBeforeStart` when `date` is before ``t0``.
    public func code(at date: Date) throws(MFAError) -> String {
        try generator.code(counter: step(at: date))
    }

    /// The code for time step `step`.
    public func code(step: UInt64) -> String {
        generator.code(counter: step)
    }

    /// The moment the step `step` begins.
    public func startOfStep(_ step: UInt64) -> Date {
        Date(timeIntervalSince1970: Double(t0) + Double(step) * Double(period))
    }

    /// Checks `code` against the steps from `window` before to `window` after the one at `date`.
    ///
    /// Each step of the window is computed and compared in constant time; there is no early
    /// exit. Spaces in `code` are ignored; any other malformed code is rejected.
    ///
    /// - Parameters:
    ///   - code: What the user typed.
    ///   - date: The current time.
    ///   - window: How many steps either side to accept (default 1, at most
    ///     ``MFAError/maximumTOTPWindow``).
    /// - Returns: The matching step (the one nearest the current step), or nil.
    /// - Throws: ``MFAError`` `.invalidPolicy` for a negative or wider window.
    public func verify(_ code: String, at date: Date, window: Int = 1) throws(MFAError) -> UInt64? {
        try verify(code, at: date, window: window, after: nil)
    }

    /// Like ``verify(_:at:window:)``, ignoring steps at or before `lastAccepted`.
    func verify(_ code: String, at date: Date, window: Int, after lastAccepted: UInt64?) throws(MFAError) -> UInt64? {
        try MFAError.validate(window: window)
        guard let current = stepIfValid(at: date) else { return nil }
        let width = UInt64(window)
        let lower = current >= width ? current - width : 0
        let (upperSum, overflow) = current.addingReportingOverflow(width)
        let upper = overflow ? UInt64.max : upperSum
        var best: UInt64?
        _ = generator.withNormalizedCode(code) { digits in
            for candidate in lower...upper where generator.matches(digits, counter: candidate) {
                if let lastAccepted, candidate <= lastAccepted { continue }
                if let chosen = best, Self.distance(chosen, current) <= Self.distance(candidate, current) { continue }
                best = candidate
            }
        }
        return best
    }

    /// The step at `date`, or nil before `t0` or beyond the range of `UInt64`.
    private func stepIfValid(at date: Date) -> UInt64? {
        let elapsed = (date.timeIntervalSince1970 - Double(t0)).rounded(.down)
        guard elapsed >= 0, elapsed < 9.0e18 else { return nil }
        return UInt64(elapsed) / UInt64(period)
    }

    private static func distance(_ a: UInt64, _ b: UInt64) -> UInt64 { a > b ? a - b : b - a }

    /// `TOTP(SHA1, 6 digits, period 30 s, t0 0, secret: redacted)`.
    public var description: String {
        "TOTP(\(algorithm), \(digits) digits, period \(period) s, t0 \(t0), secret: \(Redacted.marker))"
    }
    /// The same as ``description``.
    public var debugDescription: String { description }
    /// A mirror without the secret.
    public var customMirror: Mirror {
        Mirror(self, children: ["algorithm": algorithm, "digits": digits, "period": period, "t0": t0, "secret": Redacted.marker], displayStyle: .struct)
    }
}
