// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthMFA
import Foundation

/// The multi-factor state of one server: TOTP secrets, replay records, hashed recovery codes,
/// failure counts and the pending login challenges.
///
/// Secrets, replay records and recovery codes live in an `InMemoryCredentialStore` under the
/// account `(mfa, <user id>)` and are checked by AuthMFA's `TOTPVerifier` and
/// `RecoveryCodeVault` on the server clock. Each ``ServerState`` holds one (`mfa`), so the login
/// policy and the MFA routes see the same enrolments.
actor MFAServerState {
    /// The namespace of every record in the store.
    static let namespace = "mfa"
    /// Seconds a login challenge stays answerable.
    static let challengeLifetime = 300
    /// The methods every challenge offers.
    static let methods: [MFAMethod] = [.totp, .recoveryCode]
    /// The issuer written into `otpauth://` URIs.
    static let issuer = "AuthTestServer"

    /// What an enrolment returns to the user, once.
    struct Enrollment: Sendable {
        let uri: OTPKeyURI
        let recoveryCodes: [RecoveryCode]
    }

    /// The outcome of answering a challenge.
    enum Answer: Sendable, Equatable {
        /// The code was right; issue tokens for `userID`. The challenge is consumed.
        case accepted(userID: String, method: MFAMethod)
        /// The code was wrong, replayed or already used.
        case invalidCode
        /// Too many wrong codes: every code is refused until `until`.
        case lockedOut(until: Date)
        /// The challenge is unknown, expired or already answered.
        case expiredChallenge
        /// The challenge does not offer this method.
        case unsupportedMethod
    }

    private struct PendingChallenge {
        let userID: String
        let expiresAt: Date
    }

    private let clock: ServerClock
    private let policy: TOTPVerifier.Policy
    private let secrets: TOTPSecretVault
    private let replayGuard: OTPReplayGuard
    private let verifier: TOTPVerifier
    private let recoveryCodes: RecoveryCodeVault
    private var challenges: [String: PendingChallenge] = [:]
    private var recoveryFailures: [String: [Date]] = [:]
    private var recoveryLockedUntil: [String: Date] = [:]
    /// Recovery-code attempts that have started and not yet ended, per user.
    private var recoveryAttemptsInFlight: [String: Int] = [:]

    /// Creates empty state reading time from `clock`.
    init(clock: ServerClock, policy: TOTPVerifier.Policy = TOTPVerifier.Policy()) {
        let store = InMemoryCredentialStore()
        let now: @Sendable () -> Date = { clock.now() }
        self.clock = clock
        self.policy = policy
        self.secrets = TOTPSecretVault(store: store, now: now)
        self.replayGuard = OTPReplayGuard(store: store, now: now)
        self.verifier = TOTPVerifier(store: store, policy: policy, now: now)
        self.recoveryCodes = RecoveryCodeVault(store: store, now: now)
    }

    /// Whether the user has a TOTP secret.
    func isEnrolled(userID: String) async throws -> Bool {
        try await secrets.load(for: Self.account(userID)) != nil
    }

    /// Creates (or replaces) the user's TOTP secret and recovery codes.
    /// - Parameters:
    ///   - userID: The user.
    ///   - label: The account name for the URI; the user id is used when it is not a valid label.
    func enroll(userID: String, label: String) async throws -> Enrollment {
        let account = Self.account(userID)
        let secret = try OTPSecret.generate()
        let totp = try TOTP(secret: secret)
        let uri: OTPKeyURI
        do {
            uri = try OTPKeyURI(totp: totp, account: label, issuer: Self.issuer)
        } catch {
            uri = try OTPKeyURI(totp: totp, account: userID, issuer: Self.issuer)  // a name with ':'
        }
        try await replayGuard.reset(for: account)
        try await secrets.save(totp, for: account)
        let codes = try await recoveryCodes.regenerate(for: account)
        await verifier.resetFailures(for: account)
        clearRecoveryFailures(userID)
        return Enrollment(uri: uri, recoveryCodes: codes)
    }

    /// Opens a challenge for a user whose password was accepted.
    func openChallenge(for userID: String) -> LoginChallenge {
        let now = clock.now()
        challenges = challenges.filter { $0.value.expiresAt > now }
        let id = ServerState.randomToken()
        challenges[id] = PendingChallenge(userID: userID, expiresAt: now.addingTimeInterval(TimeInterval(Self.challengeLifetime)))
        return LoginChallenge(challengeID: id, methods: Self.methods.map(\.rawValue), expiresIn: Self.challengeLifetime)
    }

    /// Checks `code` for the challenge `challengeID` by `method`.
    /// - Throws: A `CredentialStoreError` when the MFA store fails (the code is then not accepted).
    func answer(challengeID: String, method: MFAMethod, code: String) async throws -> Answer {
        guard let userID = liveChallengeUser(challengeID) else { return .expiredChallenge }
        guard Self.methods.contains(method) else { return .unsupportedMethod }
        let account = Self.account(userID)
        if let until = await lockoutEnd(userID) { return .lockedOut(until: until) }
        let accepted: Bool
        switch method {
        case .totp:
            let result: TOTPVerificationResult
            do {
                result = try await verifier.verify(code, for: account)
            } catch let error as MFAError where error.code == .notEnrolled {
                return .invalidCode
            }
            if case .lockedOut(let until) = result { return .lockedOut(until: until) }
            accepted = result.isAccepted
        default:
            // Counted before the vault is awaited (as the verifier counts TOTP attempts), so that
            // concurrent wrong codes cannot all pass the lockout check before one is recorded.
            if let until = startRecoveryAttempt(userID) { return .lockedOut(until: until) }
            defer { endRecoveryAttempt(userID) }
            accepted = try await recoveryCodes.redeem(code, for: account)
            if accepted {
                await verifier.resetFailures(for: account)
                clearRecoveryFailures(userID)
            } else if let until = recordRecoveryFailure(userID) {
                return .lockedOut(until: until)
            }
        }
        guard accepted else { return .invalidCode }
        // Consumed here, after the last suspension point: a challenge yields one token family.
        guard challenges.removeValue(forKey: challengeID) != nil else { return .expiredChallenge }
        return .accepted(userID: userID, method: method)
    }

    /// The user of a known, unexpired challenge; an expired one is forgotten.
    private func liveChallengeUser(_ id: String) -> String? {
        guard let pending = challenges[id] else { return nil }
        guard pending.expiresAt > clock.now() else {
            challenges[id] = nil
            return nil
        }
        return pending.userID
    }

    /// When the user's lockout (from TOTP or recovery-code failures) ends, or nil.
    private func lockoutEnd(_ userID: String) async -> Date? {
        let totp = await verifier.lockoutEnd(for: Self.account(userID))
        var recovery = recoveryLockedUntil[userID]
        if let until = recovery, until <= clock.now() {
            recoveryLockedUntil[userID] = nil
            recovery = nil
        }
        return [totp, recovery].compactMap { $0 }.max()
    }

    /// Starts a recovery-code attempt before anything suspends: returns the end of the lockout
    /// when the user is locked out, or when the failures counted so far plus the attempts being
    /// checked already reach the limit (then the end the lockout would have if they all failed
    /// now); otherwise counts the attempt as being checked, until ``endRecoveryAttempt(_:)``.
    private func startRecoveryAttempt(_ userID: String) -> Date? {
        let now = clock.now()
        if let until = recoveryLockedUntil[userID], until > now { return until }
        let recent = (recoveryFailures[userID] ?? []).filter { now.timeIntervalSince($0) < policy.failureWindow }
        let inFlight = recoveryAttemptsInFlight[userID] ?? 0
        guard recent.count + inFlight < policy.maxFailures else { return now.addingTimeInterval(policy.lockoutDuration) }
        recoveryAttemptsInFlight[userID] = inFlight + 1
        return nil
    }

    /// Ends an attempt started by ``startRecoveryAttempt(_:)``, whatever its outcome.
    private func endRecoveryAttempt(_ userID: String) {
        let inFlight = (recoveryAttemptsInFlight[userID] ?? 1) - 1
        recoveryAttemptsInFlight[userID] = inFlight > 0 ? inFlight : nil
    }

    /// Counts a wrong recovery code with the verifier's limits; returns the lockout end when
    /// this failure triggers one.
    private func recordRecoveryFailure(_ userID: String) -> Date? {
        let now = clock.now()
        var recent = (recoveryFailures[userID] ?? []).filter { now.timeIntervalSince($0) < policy.failureWindow }
        recent.append(now)
        guard recent.count >= policy.maxFailures else {
            recoveryFailures[userID] = recent
            return nil
        }
        recoveryFailures[userID] = nil
        let until = now.addingTimeInterval(policy.lockoutDuration)
        recoveryLockedUntil[userID] = until
        return until
    }

    private func clearRecoveryFailures(_ userID: String) {
        recoveryFailures[userID] = nil
        recoveryLockedUntil[userID] = nil
    }

    private static func account(_ userID: String) -> AccountKey {
        AccountKey(namespace: namespace, account: userID)
    }
}
