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

extension Story {
    /// The enrolment answer of `POST /auth/mfa/totp/enroll`.
    private struct TOTPEnrolment: Decodable {
        let otpauth_uri: String
        let recovery_codes: [String]
    }

    /// Alice enrols TOTP, keeps the secret in the credential store, signs out, and signs in
    /// again: the server asks for a second factor and the code comes from the stored secret,
    /// with nobody typing it.
    func totpSignInStep() async {
        await report.step("alice enrols TOTP and signs in again with a code from the vault") {
            let alice = try await bearerClient("alice")
            let enrolment = try await alice.json(TOTPEnrolment.self, .post, base.appending(path: "auth/mfa/totp/enroll"))
            let uri = try OTPKeyURI(parsing: enrolment.otpauth_uri)
            let secrets = TOTPSecretVault(store: container[CredentialStoreKey.self])
            try await secrets.save(try uri.makeTOTP(), for: alice.account)
            try await alice.signOut()

            let challengesBefore = server.counters.count(MFACounter.challenges)
            let loginsBefore = server.counters.logins
            // The story moves the server's clock to cross token expiries; codes are computed on
            // that clock, as an authenticator in sync with the server would.
            let codes = TOTPCodeProvider(vault: secrets, account: alice.account, now: { [server] in server.clock.now() })
            try await alice.signIn(try await signIn("alice", codes: codes))
            let me = try await alice.json(Me.self, .get, base.appending(path: "me"))
            let challenges = server.counters.count(MFACounter.challenges) - challengesBefore
            let logins = server.counters.logins - loginsBefore
            try check(me.username == "alice", "/me answered \(me.username ?? "nobody")")
            try check(challenges == 1 && logins == 1, "the server counted \(challenges) challenges and \(logins) logins, expected one of each")
            return "\(uri.issuer ?? "?") enrolled \(uri.account) (\(enrolment.recovery_codes.count) recovery codes); the sign-in after sign-out answered its challenge from the vault"
        }
    }
}
