// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthOAuth2
import AuthTesting
import Foundation
import HTTPTypes
import Testing

/// A refresh token past its known expiry is not sent to the token endpoint.
@Suite struct RefreshTokenExpiryTests {
    @Test func anExpiredRefreshTokenIsNotSentByTheRefresher() async throws {
        let transport = ClosureTransport { _ in Issue.record("the token endpoint was called"); return AuthResponse(status: .ok) }
        let clock = ManualClock(start: Date(timeIntervalSince1970: 1_800_000_000))
        let refresher = OAuth2RefreshTokenRefresher(tokenEndpoint: URL(string: "https://auth.example.com/token")!, clientID: "cli", transport: transport, clock: clock)
        let tokens = BearerTokenSet(accessToken: "a", refreshToken: "r-secret", refreshExpiresAt: Date(timeIntervalSince1970: 1_799_999_999))
        await #expect { _ = try await refresher.refresh(tokens) } throws: { error in
            guard let error = error as? AuthError else { return false }
            return error.code == .reauthenticationRequired && error.underlying is RefreshTokenExpired && !error.description.contains("r-secret")
        }
    }
}
