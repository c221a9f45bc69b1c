// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthTesting
import Foundation
import Testing
@testable import AuthMFA

/// A sign-in answer without a `Date` field: its tokens count as issued when the request was sent
/// (no later than the truth), not when the slow answer arrived.
@Suite struct SignInIssueTimeTests {
    @Test func withoutADateTheLifetimeRunsFromTheSending() async throws {
        let clock = ManualClock()
        let sent = clock.now()
        let base = URL(string: "https://id.example.com/auth/")!
        let signIn = PasswordSignIn(loginURL: base.appending(path: "login"), verifyURL: base.appending(path: "mfa/verify"), transport: ClosureTransport { _ in
            clock.advance(by: 5)
            return AuthResponse(status: .ok, body: Data(#"{"access_token":"a","token_type":"Bearer","expires_in":3600}"#.utf8))
        }, clock: clock)
        let tokens = try await signIn.signIn(username: "alice", password: "pw")
        #expect(tokens.expiresAt == sent.addingTimeInterval(3600))
    }
}
