// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Foundation
import Testing
@testable import AuthMFA

@Suite struct TOTPVerifierTests {
    let account = AccountKey(namespace: "example", account: "alice")
    let clock = TestClock(Date(timeIntervalSince1970: 1_700_000_015))
    let store = InMemoryCredentialStore()
    let totp: TOTP

    init() throws {
        totp = try TOTP(secret: OTPSecret.generate())
    }

    func makeVerifier(policy: TOTPVerifier.Policy = .init()) async throws -> TOTPVerifier {
        try await TOTPSecretVault(store: store).save(totp, for: account)
        let clock = self.clock
        return TOTPVerifier(store: store, policy: policy, now: { clock.now })
    }

    /// A code that is wrong for every step of the ±1 window at the clock's time.
    func wrongCode() throws -> String {
        let step = try totp.step(at: clock.now)
        let valid = Set((step - 1...step + 1).map { totp.code(step: $0) })
        return (0..<1000).map { String(format: "%06d", $0) }.first { !valid.contains($0) } ?? "000000"
    }

    @Test func acceptsACurrentCodeOnceThenReportsReplay() async throws {
        let verifier = try await makeVerifier()
        let code = try totp.code(at: clock.now)
        #expect(try await verifier.verify(code, for: account) == .accepted(step: try totp.step(at: clock.now)))
        #expect(try await verifier.verify(code, for: account) == .replayed)
        // A fresh verifier over the same store (a server restart) still refuses it.
        let clock = self.clock
        let restarted = TOTPVerifier(store: store, now: { clock.now })
        #expect(try await restarted.verify(code, for: account) == .replayed)
        // The next step's code is accepted.
        clock.advance(by: 30)
        #expect(try await verifier.verify(try totp.code(at: clock.now), for: account).isAccepted)
    }

    /// A policy out of range is refused at every verification, and accepts nothing. Before, a
    /// 100,000-step window accepted a code from seven weeks ago (and `Int.max` never returned),
    /// `maxFailures: 0` locked every account out without saying why, and a failure window or
    /// lockout of 0 turned the lockout off.
    @Test(arguments: [
        TOTPVerifier.Policy(window: 100_000), TOTPVerifier.Policy(window: -1), TOTPVerifier.Policy(maxFailures: 0),
        TOTPVerifier.Policy(failureWindow: -1), TOTPVerifier.Policy(failureWindow: 0), TOTPVerifier.Policy(lockoutDuration: 0),
        TOTPVerifier.Policy(lockoutDuration: .nan),
    ])
    func aPolicyOutOfRangeIsATypedErrorAndAcceptsNothing(policy: TOTPVerifier.Policy) async throws {
        let verifier = try await makeVerifier(policy: policy)
        let old = totp.code(step: try totp.step(at: clock.now) - 50_000)
        let current = try totp.code(at: clock.now)
        for code in [old, current] {
            let error = await #expect(throws: MFAError.self) { try await verifier.verify(code, for: account) }
            #expect(error?.code == .invalidPolicy)
            #expect(error?.message.contains(code) == false)
        }
        let error = await #expect(throws: MFAError.self) { try await verifier.verify(current, for: account, using: totp) }
        #expect(error?.code == .invalidPolicy)
        // The widest window allowed works.
        let widest = try await makeVerifier(policy: .init(window: MFAError.maximumTOTPWindow))
        #expect(try await widest.verify(totp.code(step: try totp.step(at: clock.now) - 10), for: account).isAccepted)
    }

    @Test func locksOutAfterFiveFailuresAndUnlocksAfterTheWindow() async throws {
        let verifier = try await makeVerifier()
        let wrong = try wrongCode()
        for attempt in 1...4 {
            #expect(try await verifier.verify(wrong, for: account) == .rejected(remainingAttempts: 5 - attempt))
        }
        let lockedUntil = clock.now.addingTimeInterval(300)
        #expect(try await verifier.verify(wrong, for: account) == .lockedOut(until: lockedUntil))
        // Even the right code is refused while locked out.
        clock.advance(by: 299)
        #expect(try await verifier.verify(try totp.code(at: clock.now), for: account) == .lockedOut(until: lockedUntil))
        #expect(await verifier.lockoutEnd(for: account) == lockedUntil)
        // Other accounts are not affected.
        let bob = AccountKey(namespace: "example", account: "bob")
        try await TOTPSecretVault(store: store).save(totp, for: bob)
        #expect(try await verifier.verify(try totp.code(at: clock.now), for: bob).isAccepted)
        clock.advance(by: 1)
        #expect(await verifier.lockoutEnd(for: account) == nil)
        #expect(try await verifier.verify(try totp.code(at: clock.now), for: account).isAccepted)
    }

    @Test func failuresOutsideTheWindowDoNotCount() async throws {
        let verifier = try await makeVerifier()
        let wrong = try wrongCode()
        for _ in 1...4 { _ = try await verifier.verify(wrong, for: account) }
        clock.advance(by: 301)
        #expect(try await verifier.verify(try wrongCode(), for: account) == .rejected(remainingAttempts: 4))
    }

    @Test func successResetsTheFailureCount() async throws {
        let verifier = try await makeVerifier(policy: .init(maxFailures: 3))
        let wrong = try wrongCode()
        #expect(try await verifier.verify(wrong, for: account) == .rejected(remainingAttempts: 2))
        #expect(try await verifier.verify(wrong, for: account) == .rejected(remainingAttempts: 1))
        #expect(try await verifier.verify(try totp.code(at: clock.now), for: account).isAccepted)
        #expect(try await verifier.verify(wrong, for: account) == .rejected(remainingAttempts: 2))
    }

    @Test func windowEdgesThroughTheVerifier() async throws {
        let verifier = try await makeVerifier()
        let step = try totp.step(at: clock.now)
        #expect(try await verifier.verify(totp.code(step: step + 2), for: account) == .rejected(remainingAttempts: 4))
        #expect(try await verifier.verify(totp.code(step: step - 1), for: account) == .accepted(step: step - 1))
        #expect(try await verifier.verify(totp.code(step: step + 1), for: account) == .accepted(step: step + 1))
        // step + 1 is now the last accepted one: the current step's code counts as a replay.
        #expect(try await verifier.verify(totp.code(step: step), for: account) == .replayed)
    }

    @Test func unenrolledAccountIsATypedError() async throws {
        let verifier = TOTPVerifier(store: store)
        do {
            _ = try await verifier.verify("123456", for: account)
            Issue.record("verified without a secret")
        } catch let error as MFAError {
            #expect(error.code == .notEnrolled)
        }
    }

    /// Twenty wrong codes sent at once, all waiting on the store together: the user gets
    /// `maxFailures - 1` rejections and a lockout for every other one, exactly as if they had
    /// been sent one by one, and the right code is refused afterwards.
    @Test func concurrentWrongCodesCannotOutrunTheLockout() async throws {
        let guesses = 20
        let maxFailures = 5
        try await TOTPSecretVault(store: store).save(totp, for: account)
        let barrier = Barrier(parties: guesses)
        let clock = self.clock, account = self.account
        let verifier = TOTPVerifier(store: GatedStore(inner: store, item: TOTPSecretVault.item, barrier: barrier),
                                    policy: .init(maxFailures: maxFailures), now: { clock.now })
        let wrong = try wrongCode()
        let results = try await withThrowingTaskGroup(of: TOTPVerificationResult.self) { group in
            for _ in 0..<guesses {
                group.addTask {
                    let result = try await verifier.verify(wrong, for: account)
                    barrier.withdraw()  // answered: it will not read the store (again)
                    return result
                }
            }
            return try await group.reduce(into: [TOTPVerificationResult]()) { $0.append($1) }
        }
        let lockedUntil = clock.now.addingTimeInterval(300)
        let rejections = results.filter { if case .rejected = $0 { true } else { false } }
        #expect(Set(rejections) == Set((1..<maxFailures).map { TOTPVerificationResult.rejected(remainingAttempts: $0) }))
        #expect(rejections.count == maxFailures - 1)
        #expect(results.filter { $0 == .lockedOut(until: lockedUntil) }.count == guesses - (maxFailures - 1))
        #expect(try await verifier.verify(try totp.code(at: clock.now), for: account) == .lockedOut(until: lockedUntil))
    }

    /// Two verifiers (two servers) over one store get the same valid code at once, both reading
    /// the replay record before either writes it: the user is signed in once; the other
    /// submission is reported as a replay, and so is any later one.
    @Test func aCodeSentToTwoVerifiersAtOnceIsAcceptedOnce() async throws {
        try await TOTPSecretVault(store: store).save(totp, for: account)
        // Each verification reads the replay record twice (its last step, then to record the
        // new one): both verifiers make each read before either goes on.
        let gated = GatedStore(inner: store, item: OTPReplayGuard.item, barrier: Barrier(parties: 2, rounds: 2))
        let clock = self.clock, account = self.account
        let first = TOTPVerifier(store: gated, now: { clock.now })
        let second = TOTPVerifier(store: gated, now: { clock.now })
        let code = try totp.code(at: clock.now)
        async let one = first.verify(code, for: account)
        async let other = second.verify(code, for: account)
        let results = try await [one, other]
        #expect(results.filter(\.isAccepted) == [.accepted(step: try totp.step(at: clock.now))])
        #expect(results.filter { $0 == .replayed }.count == 1)
        #expect(try await TOTPVerifier(store: store, now: { clock.now }).verify(code, for: account) == .replayed)
    }

    @Test func verifiesAgainstAGivenGenerator() async throws {
        let clock = self.clock
        let verifier = TOTPVerifier(store: store, now: { clock.now })
        #expect(try await verifier.verify(try totp.code(at: clock.now), for: account, using: totp).isAccepted)
    }
}
