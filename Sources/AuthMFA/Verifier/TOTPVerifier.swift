// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
public import Foundation

/// Checks TOTP codes on the server side: window, replay protection and lockout.
///
/// For each account it accepts a code within ``Policy/window`` steps of now, refuses a code
/// whose step was already accepted (through an ``OTPReplayGuard`` persisted in the store), and
/// after ``Policy/maxFailures`` failures (wrong or replayed codes) within
/// ``Policy/failureWindow`` refuses every code until ``Policy/lockoutDuration`` has passed.
/// Failure counts live in memory; the replay record and secrets live in the store.
///
/// An attempt counts against the limit from the moment it starts, before the verifier waits for
/// the store, so concurrent guesses cannot outrun the lockout: at most ``Policy/maxFailures``
/// codes are checked before a lockout, however the calls interleave. While the attempts that may
/// use up the last allowed failures are being checked, a further one is refused as
/// ``TOTPVerificationResult/lockedOut(until:)``, with the end the lockout would have if they all
/// failed now.
///
/// ```swift
/// let verifier = TOTPVerifier(store: store, now: { clock.now() })
/// switch try await verifier.verify(code, for: account) {
/// case .accepted: signIn()
/// case .rejected, .replayed: askAgain()
/// case .lockedOut(let until): tellToWait(until)
/// }
/// ```
public actor TOTPVerifier: CustomStringConvertible, CustomReflectable {
    /// The verifier's limits.
    public struct Policy: Sendable, Hashable {
        /// Steps accepted either side of the current one (default 1).
        public var window: Int
        /// Failures that trigger a lockout (default 5).
        public var maxFailures: Int
        /// The time over which failures are counted (default 5 minutes).
        public var failureWindow: TimeInterval
        /// How long a lockout lasts (default 5 minutes).
        public var lockoutDuration: TimeInterval

        /// Creates a policy. ``TOTPVerifier`` checks it: `window` 0 to
        /// ``MFAError/maximumTOTPWindow``, `maxFailures` at least 1, the durations finite and above
        /// 0 (0 would turn the lockout off).
        public init(window: Int = 1, maxFailures: Int = 5, failureWindow: TimeInterval = 300, lockoutDuration: TimeInterval = 300) {
            self.window = window
            self.maxFailures = maxFailures
            self.failureWindow = failureWindow
            self.lockoutDuration = lockoutDuration
        }
    }

    private let secrets: TOTPSecretVault
    private let replayGuard: OTPReplayGuard
    private let policy: Policy
    /// Why ``policy`` cannot be used, if it cannot; thrown by each verification.
    private let policyProblem: MFAError?
    private let now: @Sendable () -> Date
    private var failures: [AccountKey: [Date]] = [:]
    private var lockedUntil: [AccountKey: Date] = [:]
    /// Attempts that have started and not yet ended, per account (see ``startAttempt(for:at:)``).
    private var attemptsInFlight: [AccountKey: Int] = [:]

    /// Creates a verifier whose secrets and replay records live in `store`.
    ///
    /// - Parameters:
    ///   - store: Holds each account's `totp-secret` and `otp-replay` records.
    ///   - policy: Window and lockout limits. One out of range (see ``Policy/init(window:maxFailures:failureWindow:lockoutDuration:)``)
    ///     makes every verification throw ``MFAError`` `.invalidPolicy`, accepting nothing.
    ///   - now: The clock; inject one in tests.
    public init(store: any CredentialStore, policy: Policy = Policy(), now: @escaping @Sendable () -> Date = { Date() }) {
        self.secrets = TOTPSecretVault(store: store, now: now)
        self.replayGuard = OTPReplayGuard(store: store, now: now)
        self.policy = policy
        self.policyProblem = Self.problem(with: policy)
        self.now = now
    }

    /// What is wrong with `policy`, or nil.
    private static func problem(with policy: Policy) -> MFAError? {
        do throws(MFAError) {
            try MFAError.validate(window: policy.window)
        } catch {
            return error
        }
        guard policy.maxFailures >= 1 else {
            return MFAError(code: .invalidPolicy, message: "maxFailures must be at least 1, not \(policy.maxFailures)")
        }
        // 0 would turn the lockout off: no failure counted, or a lockout that ends at once.
        for (name, seconds) in [("failureWindow", policy.failureWindow), ("lockoutDuration", policy.lockoutDuration)] where !(seconds.isFinite && seconds > 0) {
            return MFAError(code: .invalidPolicy, message: "\(name) must be a finite number of seconds above 0, not \(seconds)")
        }
        return nil
    }

    /// Checks `code` for `account` against the TOTP secret stored for it.
    ///
    /// - Throws: ``MFAError`` `.notEnrolled` when the account has no TOTP secret, `.invalidPolicy`
    ///   when the verifier's policy is out of range; ``/AuthCore/CredentialStoreError`` when the
    ///   store fails (the code is then not accepted).
    public func verify(_ code: String, for account: AccountKey) async throws -> TOTPVerificationResult {
        if let policyProblem { throw policyProblem }
        let date = now()
        if let refusal = startAttempt(for: account, at: date) { return refusal }
        defer { endAttempt(for: account) }
        guard let totp = try await secrets.load(for: account) else {
            throw MFAError.notEnrolled(method: .totp)
        }
        return try await check(code, for: account, using: totp, at: date)
    }

    /// Checks `code` for `account` against `totp` (a secret kept elsewhere).
    ///
    /// - Throws: ``MFAError`` `.invalidPolicy` when the verifier's policy is out of range;
    ///   ``/AuthCore/CredentialStoreError`` when the replay record cannot be read or written.
    public func verify(_ code: String, for account: AccountKey, using totp: TOTP) async throws -> TOTPVerificationResult {
        if let policyProblem { throw policyProblem }
        let date = now()
        if let refusal = startAttempt(for: account, at: date) { return refusal }
        defer { endAttempt(for: account) }
        return try await check(code, for: account, using: totp, at: date)
    }

    /// The end of the account's lockout, or nil when it is not locked out now.
    public func lockoutEnd(for account: AccountKey) -> Date? {
        activeLockout(for: account, at: now())
    }

    /// Clears the account's failures and lockout (for example after a recovery-code sign-in).
    public func resetFailures(for account: AccountKey) {
        failures[account] = nil
        lockedUntil[account] = nil
    }

    /// Starts an attempt for `account` before anything suspends: refuses it when the account is
    /// locked out, or when the failures counted so far plus the attempts being checked already
    /// reach ``Policy/maxFailures``; otherwise counts it as being checked (until
    /// ``endAttempt(for:)``) and returns nil.
    ///
    /// So failures plus attempts in flight never exceed the limit, and a lockout only starts
    /// when no other attempt of the account is in flight.
    private func startAttempt(for account: AccountKey, at date: Date) -> TOTPVerificationResult? {
        if let until = activeLockout(for: account, at: date) { return .lockedOut(until: until) }
        let inFlight = attemptsInFlight[account] ?? 0
        guard recentFailures(for: account, at: date).count + inFlight < policy.maxFailures else {
            return .lockedOut(until: date.addingTimeInterval(policy.lockoutDuration))
        }
        attemptsInFlight[account] = inFlight + 1
        return nil
    }

    /// Ends an attempt started by ``startAttempt(for:at:)``, whatever its outcome.
    private func endAttempt(for account: AccountKey) {
        let inFlight = (attemptsInFlight[account] ?? 1) - 1
        attemptsInFlight[account] = inFlight > 0 ? inFlight : nil
    }

    private func check(_ code: String, for account: AccountKey, using totp: TOTP, at date: Date) async throws -> TOTPVerificationResult {
        let last = try await replayGuard.lastAcceptedStep(for: account)
        if let step = try totp.verify(code, at: date, window: policy.window, after: last) {
            if try await replayGuard.accept(step: step, for: account) {
                failures[account] = nil
                return .accepted(step: step)
            }
            return recordFailure(for: account, at: date, replayed: true)
        }
        let replayed = try last != nil && totp.verify(code, at: date, window: policy.window, after: nil) != nil
        return recordFailure(for: account, at: date, replayed: replayed)
    }

    private func activeLockout(for account: AccountKey, at date: Date) -> Date? {
        guard let until = lockedUntil[account] else { return nil }
        if date < until { return until }
        lockedUntil[account] = nil
        return nil
    }

    /// The account's failures within ``Policy/failureWindow`` before `date`.
    private func recentFailures(for account: AccountKey, at date: Date) -> [Date] {
        (failures[account] ?? []).filter { date.timeIntervalSince($0) < policy.failureWindow }
    }

    private func recordFailure(for account: AccountKey, at date: Date, replayed: Bool) -> TOTPVerificationResult {
        var recent = recentFailures(for: account, at: date)
        recent.append(date)
        if recent.count >= policy.maxFailures {
            failures[account] = nil
            let until = date.addingTimeInterval(policy.lockoutDuration)
            lockedUntil[account] = until
            return .lockedOut(until: until)
        }
        failures[account] = recent
        return replayed ? .replayed : .rejected(remainingAttempts: policy.maxFailures - recent.count)
    }

    /// `TOTPVerifier(window ±1, 5 failures per 300 s)`.
    public nonisolated var description: String {
        "TOTPVerifier(window ±\(policy.window), \(policy.maxFailures) failures per \(Int(policy.failureWindow)) s, lockout \(Int(policy.lockoutDuration)) s)"
    }
    /// A mirror with the policy only (neither the store nor per-account state is reflected).
    public nonisolated var customMirror: Mirror {
        Mirror(self, children: ["window": policy.window, "maxFailures": policy.maxFailures, "failureWindow": policy.failureWindow, "lockoutDuration": policy.lockoutDuration], displayStyle: .class)
    }
}
