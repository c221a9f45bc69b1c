// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// The names of the counters the MFA endpoints keep, read with ``ServerCounters/count(_:)``.
///
/// A successful verification also counts a ``CounterEvent/login``; an `mfa_required` answer
/// does not.
///
/// ```swift
/// #expect(server.counters.count(MFACounter.challenges) == 1)
/// #expect(server.counters.logins == 0)
/// ```
public enum MFACounter {
    /// TOTP enrolments (`POST /auth/mfa/totp/enroll`).
    public static let enrollments = "mfa.enrollments"
    /// `mfa_required` answers to a correct password.
    public static let challenges = "mfa.challenges"
    /// Challenges answered with a right code (each issued tokens).
    public static let verified = "mfa.verified"
    /// Challenges answered with a recovery code (included in ``verified``).
    public static let recoveryCodesUsed = "mfa.recovery_codes_used"
    /// Wrong, replayed or already used codes (`401 invalid_code`).
    public static let invalidCodes = "mfa.invalid_codes"
    /// Answers refused because of a lockout (`429 locked_out`).
    public static let lockedOut = "mfa.locked_out"
    /// Answers to an unknown, expired or already answered challenge (`400 challenge_expired`).
    public static let expiredChallenges = "mfa.expired_challenges"
}
