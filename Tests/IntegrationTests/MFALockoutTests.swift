// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthMFA
import AuthTestServer
import Foundation
import HTTPTypes
import Synchronization
import Testing

/// The limits of the second factor: lockout, single-use recovery codes, expired challenges.
@Suite struct MFALockoutTests {
    @Test func fiveWrongCodesLockTheSecondFactorUntilTheLockoutEnds() async throws {
        try await Harness.run { h in
            let alice = try await h.signedInClient("alice", container: h.container())
            let enrolment = try await h.enrolTOTP(alice)
            let totp = try enrolment.uri.makeTOTP()
            let loginsBefore = h.server.counters.logins
            // A different wrong code each time: the client does not send a refused code again.
            let guesses = Mutex(0)
            let guesser = ClosureMFACodeProvider { _, _ in
                try wrongCode(for: totp, at: h.server.clock.now(), number: guesses.withLock { $0 += 1; return $0 })
            }
            await #expect { try await h.mfaSignIn("alice", codes: guesser, maxAttempts: 10) } throws: {
                ($0 as? MFAError)?.code == .attemptsExhausted
            }
            #expect(h.server.counters.count(MFACounter.invalidCodes) == 4)
            #expect(h.server.counters.count(MFACounter.lockedOut) == 1)

            // Locked: the right TOTP code and an unused recovery code are refused too.
            let right = ClosureMFACodeProvider { _, _ in try totp.code(at: h.server.clock.now()) }
            await #expect { try await h.mfaSignIn("alice", codes: right) } throws: { ($0 as? MFAError)?.code == .attemptsExhausted }
            let recovery = ClosureMFACodeProvider { _, _ in enrolment.recoveryCodes[0] }
            await #expect { try await h.mfaSignIn("alice", codes: recovery, methods: [.recoveryCode]) } throws: {
                ($0 as? MFAError)?.code == .attemptsExhausted
            }
            #expect(h.server.counters.count(MFACounter.lockedOut) == 3)
            #expect(h.server.counters.logins == loginsBefore)

            // On the wire: 429 locked_out with a Retry-After.
            let challenge = try await h.rawChallengeID("alice")
            let answer = try await h.postJSON("auth/mfa/verify", ["challenge_id": challenge, "method": "totp", "code": try totp.code(at: h.server.clock.now())])
            #expect(answer.status == .tooManyRequests)
            #expect(errorCode(answer) == "locked_out")
            #expect(answer.head.headerFields[.retryAfter].flatMap(Int.init).map { $0 > 0 && $0 <= 300 } == true)

            // After the lockout (300 s on the server clock) the right code works.
            h.server.clock.advance(by: 301)
            _ = try await h.mfaSignIn("alice", codes: right)
            #expect(h.server.counters.logins == loginsBefore + 1)
        }
    }

    @Test func aRecoveryCodeWorksOnceAndIsRefusedTheSecondTime() async throws {
        try await Harness.run { h in
            let container = h.container()
            let alice = try await h.signedInClient("alice", container: container)
            let codes = try await h.enrolTOTP(alice).recoveryCodes
            #expect(Set(codes).count == 10)
            let first = ClosureMFACodeProvider { _, method in
                #expect(method == .recoveryCode)
                return codes[0].uppercased()  // typed in capitals: normalized by the server
            }
            try await alice.signIn(try await h.mfaSignIn("alice", codes: first, methods: [.recoveryCode]))
            #expect(try await alice.json(Me.self, .get, h.url("me")).username == "alice")
            #expect(h.server.counters.count(MFACounter.recoveryCodesUsed) == 1)

            await #expect { try await h.mfaSignIn("alice", codes: first, methods: [.recoveryCode], maxAttempts: 1) } throws: {
                ($0 as? MFAError)?.code == .attemptsExhausted
            }
            #expect(h.server.counters.count(MFACounter.invalidCodes) == 1)

            let second = ClosureMFACodeProvider { _, _ in codes[1] }
            _ = try await h.mfaSignIn("alice", codes: second, methods: [.recoveryCode])
            #expect(h.server.counters.count(MFACounter.recoveryCodesUsed) == 2)
        }
    }

    @Test func aChallengeAnsweredAfterItExpiredIsExpiredChallengeAndCountsNoLogin() async throws {
        try await Harness.run { h in
            let alice = try await h.signedInClient("alice", container: h.container())
            let totp = try await h.enrolTOTP(alice).uri.makeTOTP()
            let loginsBefore = h.server.counters.logins
            let calls = Mutex(0)
            let slowTypist = ClosureMFACodeProvider { _, _ in
                calls.withLock { $0 += 1 }
                h.server.clock.advance(by: 301)  // the challenge lives 300 s
                return try totp.code(at: h.server.clock.now())
            }
            await #expect { try await h.mfaSignIn("alice", codes: slowTypist) } throws: { ($0 as? MFAError)?.code == .expiredChallenge }
            #expect(calls.withLock { $0 } == 1)
            #expect(h.server.counters.count(MFACounter.expiredChallenges) == 1)
            #expect(h.server.counters.count(MFACounter.verified) == 0)
            #expect(h.server.counters.logins == loginsBefore)

            // Signing in again answers a fresh challenge.
            let prompt = ClosureMFACodeProvider { _, _ in try totp.code(at: h.server.clock.now()) }
            _ = try await h.mfaSignIn("alice", codes: prompt)
            #expect(h.server.counters.logins == loginsBefore + 1)
        }
    }
}

extension Harness {
    /// Logs in with the password only and returns the `challenge_id` of the `mfa_required` answer.
    func rawChallengeID(_ username: String) async throws -> String {
        struct Challenge: Decodable {
            let mfa_required: Bool
            let challenge_id: String
        }
        let response = try await postJSON("auth/login", ["username": username, "password": "correct horse battery staple"])
        let challenge = try JSONDecoder().decode(Challenge.self, from: response.body)
        #expect(challenge.mfa_required)
        return challenge.challenge_id
    }
}
