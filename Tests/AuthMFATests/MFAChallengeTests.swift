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

@Suite struct MFAChallengeTests {
    let clock = TestClock(Date(timeIntervalSince1970: 1_700_000_000))
    let account = AccountKey(namespace: "example", account: "alice")

    func challenge(methods: [MFAMethod] = [.totp, .recoveryCode], expiresIn: TimeInterval = 300) -> MFAChallenge {
        MFAChallenge(id: "c1", methods: methods, expiresAt: clock.now.addingTimeInterval(expiresIn))
    }

    @Test func challengeCodableUsesWireNames() throws {
        let value = challenge()
        let json = try JSONEncoder().encode(value)
        let object = try JSONSerialization.jsonObject(with: json) as? [String: Any]
        #expect(object?["methods"] as? [String] == ["totp", "recovery_code"])
        #expect(try JSONDecoder().decode(MFAChallenge.self, from: json) == value)
        #expect(try JSONDecoder().decode([MFAMethod].self, from: Data(#"["sms"]"#.utf8)) == [MFAMethod(rawValue: "sms")])
    }

    @Test func preferredMethodFollowsTheServerOrder() throws {
        let value = challenge(methods: [.recoveryCode, .totp])
        #expect(try value.preferredMethod(among: [.totp, .recoveryCode]) == .recoveryCode)
        #expect(try value.preferredMethod(among: [.totp]) == .totp)
        #expect(throws: MFAError.self) { try value.preferredMethod(among: [.hotp]) }
    }

    @Test func totpProviderAnswersFromTheVault() async throws {
        let store = InMemoryCredentialStore()
        let vault = TOTPSecretVault(store: store)
        let totp = try TOTP(secret: OTPSecret.generate(), algorithm: .sha256, digits: 8, period: 60)
        try await vault.save(totp, for: account)
        let clock = self.clock
        let provider: any MFACodeProvider = TOTPCodeProvider(vault: vault, account: account, now: { clock.now })
        let code = try await provider.code(for: challenge(), method: .totp)
        #expect(code == (try totp.code(at: clock.now)))
        #expect(code.count == 8)
        // The server side accepts it.
        let verifier = TOTPVerifier(store: store, now: { clock.now })
        #expect(try await verifier.verify(code, for: account).isAccepted)
    }

    @Test func totpProviderErrors() async throws {
        let clock = self.clock
        let totp = try TOTP(secret: OTPSecret.generate())
        let provider = TOTPCodeProvider(totp: totp, now: { clock.now })
        await expectMFAError(.noMethodAvailable) { try await provider.code(for: challenge(methods: [.recoveryCode]), method: .totp) }
        await expectMFAError(.noMethodAvailable) { try await provider.code(for: challenge(), method: .recoveryCode) }
        await expectMFAError(.expiredChallenge) { try await provider.code(for: challenge(expiresIn: 0), method: .totp) }
        let unenrolled = TOTPCodeProvider(vault: TOTPSecretVault(store: InMemoryCredentialStore()), account: account, now: { clock.now })
        await expectMFAError(.notEnrolled) { try await unenrolled.code(for: challenge(), method: .totp) }
    }

    @Test func closureProviderPassesChallengeAndMethod() async throws {
        let provider = ClosureMFACodeProvider { challenge, method in "\(challenge.id):\(method)" }
        #expect(try await provider.code(for: challenge(), method: .recoveryCode) == "c1:recovery_code")
    }

    @Test func mfaErrorMessagesNameTheProblem() {
        #expect(MFAError.attemptsExhausted(attempts: 3).description.contains("3 attempts"))
        #expect(MFAError.expiredChallenge().code == .expiredChallenge)
        #expect(MFAError.noMethodAvailable(offered: [.hotp]).description.contains("hotp"))
    }

    @Test func vaultRoundTripsParametersAndFlagsCorruption() async throws {
        let store = InMemoryCredentialStore()
        let vault = TOTPSecretVault(store: store)
        let totp = try TOTP(secret: OTPSecret.generate(byteCount: 32), algorithm: .sha512, digits: 7, period: 45, t0: 100)
        try await vault.save(totp, for: account)
        let loaded = try #require(try await vault.load(for: account))
        #expect(loaded.secret == totp.secret)
        #expect(loaded.algorithm == .sha512 && loaded.digits == 7 && loaded.period == 45 && loaded.t0 == 100)
        #expect(try await store.get(account.item("totp-secret"))?.kind == "otp.totp")

        let key = account.item(TOTPSecretVault.item)
        try await store.put(Envelope(kind: "otp.totp", payload: Data(#"{"secret":"!!","algorithm":"SHA1","digits":6,"period":30,"t0":0}"#.utf8), updatedAt: clock.now), for: key)
        do {
            _ = try await vault.load(for: account)
            Issue.record("loaded a corrupt record")
        } catch let error as CredentialStoreError {
            #expect(error.code == .corrupted)
        }
        #expect(try await store.get(key) != nil)  // left in place
        try await vault.delete(for: account)
        #expect(try await vault.load(for: account) == nil)
    }

    func expectMFAError(_ code: MFAError.Code, sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> String) async {
        do {
            _ = try await body()
            Issue.record("no error, expected \(code)", sourceLocation: sourceLocation)
        } catch let error as MFAError {
            #expect(error.code == code, sourceLocation: sourceLocation)
        } catch {
            Issue.record("unexpected \(error)", sourceLocation: sourceLocation)
        }
    }
}
