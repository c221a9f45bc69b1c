// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// Decides what a correct password login answers: tokens now, or a second step first.
///
/// The server's default is ``mfaWhenEnrolled``: tokens for users without TOTP, `mfa_required`
/// for enrolled ones, whose tokens the MFA routes issue with
/// ``ServerState/issueTokens(forUserID:)`` once a code is verified. ``issueTokens`` always
/// issues tokens.
///
/// ```swift
/// let policy = LoginPolicy { user, environment in
///     guard user.attributes["totp"] != nil else { return .issueTokens }
///     return .mfaRequired(LoginChallenge(challengeID: "c1", methods: ["totp"], expiresIn: 300))
/// }
/// ```
public struct LoginPolicy: Sendable {
    /// The decision function.
    public let decide: @Sendable (UserRecord, RouteEnvironment) async throws -> LoginDecision

    /// Creates a policy.
    /// - Parameter decide: Called after the password was verified.
    public init(_ decide: @escaping @Sendable (UserRecord, RouteEnvironment) async throws -> LoginDecision) {
        self.decide = decide
    }

    /// Always issue tokens after a correct password.
    public static let issueTokens = LoginPolicy { _, _ in .issueTokens }
}

/// What ``LoginPolicy`` decided.
public enum LoginDecision: Sendable, Equatable {
    /// Answer 200 with a token response (counts a login).
    case issueTokens
    /// Answer 200 `{"mfa_required": true, "challenge_id", "methods", "expires_in"}`.
    case mfaRequired(LoginChallenge)
}

/// The body of an `mfa_required` login answer.
public struct LoginChallenge: Codable, Sendable, Equatable {
    /// Always `true`.
    public var mfaRequired: Bool
    /// Identifies the pending challenge for the verify step.
    public var challengeID: String
    /// Accepted methods, e.g. `["totp", "recovery_code"]`.
    public var methods: [String]
    /// Seconds the challenge stays valid.
    public var expiresIn: Int

    /// Creates a challenge body.
    /// - Parameters:
    ///   - challengeID: The challenge id.
    ///   - methods: Accepted methods.
    ///   - expiresIn: Seconds the challenge stays valid.
    public init(challengeID: String, methods: [String], expiresIn: Int) {
        self.mfaRequired = true
        self.challengeID = challengeID
        self.methods = methods
        self.expiresIn = expiresIn
    }

    enum CodingKeys: String, CodingKey {
        case mfaRequired = "mfa_required"
        case challengeID = "challenge_id"
        case methods
        case expiresIn = "expires_in"
    }
}
