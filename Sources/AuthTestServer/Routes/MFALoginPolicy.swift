// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

extension LoginPolicy {
    /// Tokens for users without a second factor; `mfa_required` with a new challenge (methods
    /// `totp` and `recovery_code`, valid 300 s) for users enrolled through
    /// `POST /auth/mfa/totp/enroll`. The server's default.
    ///
    /// The challenge is answered at `POST /auth/mfa/verify`, which then issues the tokens and
    /// counts the login.
    ///
    /// ```swift
    /// let server = AuthTestServer(configuration: .init(loginPolicy: .mfaWhenEnrolled))
    /// ```
    public static let mfaWhenEnrolled = LoginPolicy { user, environment in
        let mfa = environment.state.mfa
        guard try await mfa.isEnrolled(userID: user.id) else { return .issueTokens }
        let challenge = await mfa.openChallenge(for: user.id)
        environment.counters.record(.custom(MFACounter.challenges))
        return .mfaRequired(challenge)
    }
}
