// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthHTTPClient
import AuthMFA
import AuthTestServer
import Foundation
import HTTPTypes
import Synchronization
import Testing

/// TOTP enrolment and sign-in with a second factor, end to end: a real server, `PasswordSignIn`
/// and AuthKit clients.
@Suite struct MFASignInTests {
    @Test func enrolledUserSignsInWithTOTPFromTheVaultWithoutTypingACode() async throws {
        try await Harness.run { h in
            let store = InMemoryCredentialStore()
            let container = h.container(store: store)
            let alice = try await h.signedInClient("alice", container: container)
            let enrolment = try await h.enrolTOTP(alice)
            #expect(enrolment.uri.account == "alice")
            #expect(enrolment.uri.issuer == "AuthTestServer")
            #expect(enrolment.recoveryCodes.count == 10)
            #expect(h.server.counters.count(MFACounter.enrollments) == 1)

            let secrets = TOTPSecretVault(store: store)
            try await secrets.save(try enrolment.uri.makeTOTP(), for: alice.account)
            try await alice.signOut()
            await #expect { try await alice.send(.get, h.url("me")) } throws: { ($0 as? AuthError)?.code == .notSignedIn }
            #expect(try await secrets.load(for: alice.account) != nil, "signing out keeps the TOTP secret")

            let loginsBefore = h.server.counters.logins
            let provider = TOTPCodeProvider(vault: secrets, account: alice.account, now: { h.server.clock.now() })
            try await alice.signIn(try await h.login("alice", codes: provider))
            #expect(try await alice.json(Me.self, .get, h.url("me")).username == "alice")
            let counters = h.server.counters
            #expect(counters.count(MFACounter.challenges) == 1)
            #expect(counters.count(MFACounter.verified) == 1)
            #expect(counters.count(MFACounter.invalidCodes) == 0)
            #expect(counters.logins == loginsBefore + 1)
        }
    }

    @Test func typedCodeSignsInAfterAWrongOne() async throws {
        try await Harness.run { h in
            let alice = try await h.signedInClient("alice", container: h.container())
            let totp = try await h.enrolTOTP(alice).uri.makeTOTP()
            let calls = Mutex(0)
            let typist = ClosureMFACodeProvider { challenge, method in
                #expect(method == .totp)
                #expect(challenge.methods == [.totp, .recoveryCode])
                let call = calls.withLock { $0 += 1; return $0 }
                let now = h.server.clock.now()
                return call == 1 ? try wrongCode(for: totp, at: now) : try totp.code(at: now)
            }
            try await alice.signIn(try await h.login("alice", codes: typist))
            #expect(try await alice.json(Me.self, .get, h.url("me")).username == "alice")
            #expect(calls.withLock { $0 } == 2)
            #expect(h.server.counters.count(MFACounter.invalidCodes) == 1)
            #expect(h.server.counters.count(MFACounter.verified) == 1)
        }
    }

    @Test func aTOTPCodeIsAcceptedOnceAndANewStepWorksAgain() async throws {
        try await Harness.run { h in
            let alice = try await h.signedInClient("alice", container: h.container())
            let totp = try await h.enrolTOTP(alice).uri.makeTOTP()
            let fixed = Date(timeIntervalSince1970: 1_900_000_005)  // 5 s into a 30 s step
            h.server.clock.set(fixed)
            let sameStep = ClosureMFACodeProvider { _, _ in try totp.code(at: fixed) }
            _ = try await h.mfaSignIn("alice", codes: sameStep)
            // With the default three attempts, the refused code is not sent twice more: before,
            // each unattended sign-in in the same step spent three of the five wrong codes the
            // server allows before it locks the account.
            await #expect { try await h.mfaSignIn("alice", codes: sameStep) } throws: {
                ($0 as? MFAError)?.code == .attemptsExhausted
            }
            #expect(h.server.counters.count(MFACounter.invalidCodes) == 1)

            h.server.clock.set(fixed.addingTimeInterval(30))
            let nextStep = ClosureMFACodeProvider { _, _ in try totp.code(at: h.server.clock.now()) }
            _ = try await h.mfaSignIn("alice", codes: nextStep)
            #expect(h.server.counters.count(MFACounter.verified) == 2)
        }
    }

    @Test func withoutACodeProviderAChallengeIsNoMethodAvailableAndCountsNoLogin() async throws {
        try await Harness.run { h in
            let alice = try await h.signedInClient("alice", container: h.container())
            _ = try await h.enrolTOTP(alice)
            let loginsBefore = h.server.counters.logins
            await #expect { try await h.login("alice") } throws: { ($0 as? MFAError)?.code == .noMethodAvailable }
            #expect(h.server.counters.count(MFACounter.challenges) == 1)
            #expect(h.server.counters.logins == loginsBefore)
        }
    }

    @Test func verifyAndEnrolRefuseBadRequests() async throws {
        try await Harness.run { h in
            let unknown = try await h.postJSON("auth/mfa/verify", ["challenge_id": "no-such-challenge", "method": "totp", "code": "123456"])
            #expect(unknown.status == .badRequest)
            #expect(errorCode(unknown) == "challenge_expired")
            let malformed = try await h.postJSON("auth/mfa/verify", ["challenge": "x"])
            #expect(malformed.status == .badRequest)
            #expect(errorCode(malformed) == "invalid_request")
            let anonymous = try await h.postJSON("auth/mfa/totp/enroll", [:])
            #expect(anonymous.status == .unauthorized)
            #expect(h.server.counters.count(MFACounter.enrollments) == 0)
        }
    }
}

/// The enrolment answer.
struct TOTPEnrolment {
    let uri: OTPKeyURI
    let recoveryCodes: [String]
}

extension Harness {
    /// Enrols `client`'s user in TOTP and parses the `otpauth://` URI it gets back.
    func enrolTOTP(_ client: AccountClient<BearerStrategy>) async throws -> TOTPEnrolment {
        struct Body: Decodable {
            let otpauth_uri: String
            let recovery_codes: [String]
        }
        let body = try await client.json(Body.self, .post, url("auth/mfa/totp/enroll"))
        return TOTPEnrolment(uri: try OTPKeyURI(parsing: body.otpauth_uri), recoveryCodes: body.recovery_codes)
    }

    /// The password flow with a second factor, with the methods and attempts given.
    func mfaSignIn(_ username: String, codes: any MFACodeProvider, methods: [MFAMethod] = [.totp, .recoveryCode], maxAttempts: Int = 3) async throws -> BearerTokenSet {
        let signIn = PasswordSignIn(loginURL: url("auth/login"), verifyURL: url("auth/mfa/verify"), transport: transport, codeProvider: codes, preferredMethods: methods, maxAttempts: maxAttempts)
        return try await signIn.signIn(username: username, password: "correct horse battery staple")
    }

    /// Posts a JSON object without credentials.
    func postJSON(_ path: String, _ fields: [String: String]) async throws -> AuthResponse {
        try await transport.send(AuthRequest(method: .post, url: url(path), headerFields: [.contentType: "application/json"], body: JSONEncoder().encode(fields)))
    }
}

/// A well-formed code that none of the steps the server accepts at `date` (±1) produces.
func wrongCode(for totp: TOTP, at date: Date, number: Int = 0) throws -> String {
    let step = try totp.step(at: date)
    let accepted = Set((step - 1...step + 1).map(totp.code(step:)))
    let wrong = (0...9).map { String(repeating: String($0), count: 6) }.filter { !accepted.contains($0) }
    return wrong[number % wrong.count]
}

/// The `error` field of a JSON error body.
func errorCode(_ response: AuthResponse) -> String? {
    (try? JSONDecoder().decode([String: String?].self, from: response.body))?["error"] ?? nil
}
