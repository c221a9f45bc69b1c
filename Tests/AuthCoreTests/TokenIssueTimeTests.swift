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

/// When a token response has no `Date` field, its tokens count as issued when the request was
/// sent, which is no later than the server issued them. They used to count from the response's
/// arrival, so a slow response made the client hold them valid that much past their expiry.
@Suite struct TokenIssueTimeTests {
    static let body = Data(#"{"access_token":"a","token_type":"Bearer","expires_in":3600}"#.utf8)

    /// An endpoint whose answer (with `headerFields`) takes 5 s by `clock`.
    static func slowEndpoint(_ clock: ManualClock, headerFields: HTTPFields = [:]) -> OAuth2TokenEndpoint {
        OAuth2TokenEndpoint(url: URL(string: "https://id.example.com/token")!, clientID: "c", transport: ClosureTransport { _ in
            clock.advance(by: 5)
            return AuthResponse(status: .ok, headerFields: headerFields, body: Self.body)
        }, clock: clock)
    }

    @Test func withoutADateTheLifetimeRunsFromTheSending() async throws {
        let clock = ManualClock()
        let sent = clock.now()
        let tokens = try await Self.slowEndpoint(clock).requestTokens([("grant_type", "client_credentials")])
        #expect(tokens.expiresAt == sent.addingTimeInterval(3600))
    }

    @Test func withADateTheLifetimeRunsFromIt() async throws {
        let clock = ManualClock()
        let stamped = clock.now().addingTimeInterval(-42)
        let tokens = try await Self.slowEndpoint(clock, headerFields: [.date: HTTPDate.format(stamped)]).requestTokens([("grant_type", "client_credentials")])
        #expect(tokens.expiresAt == stamped.addingTimeInterval(3600))
    }
}
