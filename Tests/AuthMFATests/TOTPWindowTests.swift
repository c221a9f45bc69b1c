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

@Suite struct TOTPWindowTests {
    let totp: TOTP
    /// The middle of step 1_000_000 (30 s steps).
    let now = Date(timeIntervalSince1970: 30_000_015)
    let step: UInt64 = 1_000_000

    init() throws {
        totp = try TOTP(secret: OTPSecret(bytes: Array("12345678901234567890".utf8)))
    }

    @Test func stepIsFloorOfElapsedOverPeriod() throws {
        #expect(try totp.step(at: now) == step)
        #expect(try totp.step(at: Date(timeIntervalSince1970: 29.999)) == 0)
        #expect(try totp.step(at: Date(timeIntervalSince1970: 30)) == 1)
        let shifted = try TOTP(secret: totp.secret, period: 60, t0: 1_000)
        #expect(try shifted.step(at: Date(timeIntervalSince1970: 1_059)) == 0)
        #expect(try shifted.step(at: Date(timeIntervalSince1970: 1_060)) == 1)
        #expect(shifted.startOfStep(2) == Date(timeIntervalSince1970: 1_120))
    }

    /// A window beyond ``MFAError/maximumTOTPWindow``, or negative, is refused: before, a wide
    /// window accepted codes of months ago (`Int.max` never returned), a negative one was read as 0.
    @Test(arguments: [-1, MFAError.maximumTOTPWindow + 1, 100_000, Int.max])
    func aWindowOutOfRangeIsATypedError(window: Int) throws {
        let old = totp.code(step: step - 50_000)
        let error = #expect(throws: MFAError.self) { try totp.verify(old, at: now, window: window) }
        #expect(error?.code == .invalidPolicy)
    }

    @Test func timeBeforeT0IsATypedError() throws {
        let shifted = try TOTP(secret: totp.secret, t0: 1_000)
        #expect(throws: MFAError.self) { try shifted.code(at: Date(timeIntervalSince1970: 999)) }
        #expect(try shifted.verify("123456", at: Date(timeIntervalSince1970: 999)) == nil)
    }

    @Test(arguments: [0, -30])
    func nonPositivePeriodIsRejected(period: Int) throws {
        do {
            _ = try TOTP(secret: totp.secret, period: period)
            Issue.record("period \(period) accepted")
        } catch {
            #expect(error.code == .invalidPeriod)
        }
    }

    @Test func previousAndNextStepAcceptedTwoAwayRefused() throws {
        #expect(try totp.verify(totp.code(step: step), at: now) == step)
        #expect(try totp.verify(totp.code(step: step - 1), at: now) == step - 1)
        #expect(try totp.verify(totp.code(step: step + 1), at: now) == step + 1)
        #expect(try totp.verify(totp.code(step: step - 2), at: now) == nil)
        #expect(try totp.verify(totp.code(step: step + 2), at: now) == nil)
        #expect(try totp.verify(totp.code(step: step - 2), at: now, window: 2) == step - 2)
        #expect(try totp.verify(totp.code(step: step - 1), at: now, window: 0) == nil)
    }

    @Test func windowAtStepZeroDoesNotUnderflow() throws {
        let start = Date(timeIntervalSince1970: 10)
        #expect(try totp.verify(totp.code(step: 0), at: start) == 0)
        #expect(try totp.verify(totp.code(step: 1), at: start) == 1)
    }

    @Test func malformedCodesAreRejected() throws {
        let good = totp.code(step: step)
        #expect(try totp.verify(String(good.dropLast()), at: now) == nil)
        #expect(try totp.verify(good + "0", at: now) == nil)
        #expect(try totp.verify("abcdef", at: now) == nil)
        #expect(try totp.verify("", at: now) == nil)
        #expect(try totp.verify(String(good.prefix(3)) + " " + String(good.suffix(3)), at: now) == step)
    }

    @Test func codeIsAcceptedOnceByTheReplayGuard() async throws {
        let store = InMemoryCredentialStore()
        let replayGuard = OTPReplayGuard(store: store)
        let account = AccountKey(namespace: "example", account: "alice")
        let code = totp.code(step: step)
        let matched = try #require(try totp.verify(code, at: now))
        #expect(try await replayGuard.accept(step: matched, for: account))
        // Same code again, still within the window: matched again, refused by the guard.
        let again = try #require(try totp.verify(code, at: now.addingTimeInterval(20)))
        #expect(try await replayGuard.accept(step: again, for: account) == false)
        // An earlier step is refused too, a later one is accepted.
        #expect(try await replayGuard.accept(step: step - 1, for: account) == false)
        #expect(try await replayGuard.accept(step: step + 1, for: account))
        // Another account is independent.
        #expect(try await replayGuard.accept(step: step, for: AccountKey(namespace: "example", account: "bob")))
    }

    @Test func replayGuardSurvivesARestartOverTheSameFiles() async throws {
        let store = try DirectoryTestStore.temporary()
        defer { store.removeDirectory() }
        let account = AccountKey(namespace: "example", account: "alice")
        #expect(try await OTPReplayGuard(store: store).accept(step: step, for: account))

        let reopened = DirectoryTestStore(directory: store.directory)
        let fresh = OTPReplayGuard(store: reopened)
        #expect(try await fresh.lastAcceptedStep(for: account) == step)
        #expect(try await fresh.accept(step: step, for: account) == false)
        let envelope = try #require(try await reopened.get(account.item(OTPReplayGuard.item)))
        #expect(envelope.kind == "otp.replay")
        let json = try JSONSerialization.jsonObject(with: envelope.payload) as? [String: Any]
        #expect((json?["lastAcceptedStep"] as? NSNumber)?.uint64Value == step)
    }

    @Test func concurrentSubmissionsOfOneCodeAcceptOnlyOne() async throws {
        let replayGuard = OTPReplayGuard(store: InMemoryCredentialStore())
        let account = AccountKey(namespace: "example", account: "alice")
        let step = self.step
        let accepted = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<20 { group.addTask { try await replayGuard.accept(step: step, for: account) } }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(accepted == 1)
    }

    @Test func corruptReplayRecordIsReportedNotDropped() async throws {
        let store = InMemoryCredentialStore()
        let account = AccountKey(namespace: "example", account: "alice")
        let key = account.item(OTPReplayGuard.item)
        try await store.put(Envelope(kind: "otp.replay", payload: Data("not json".utf8), updatedAt: now), for: key)
        let replayGuard = OTPReplayGuard(store: store)
        await #expect(throws: CredentialStoreError.self) { try await replayGuard.accept(step: step, for: account) }
        #expect(try await store.get(key)?.payload == Data("not json".utf8))
    }
}
