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
/// With a `Date` from a server in step, the issue time is no later than the second the request
/// left in: the `Date` is stamped as the answer leaves, perhaps in the second after the token
/// was minted (`TokenResponse.issuedAt`, and `SlowResponseSkewTests` over real HTTP).
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

    static func answer(date: Date?) -> AuthResponse {
        var fields = HTTPFields()
        if let date { fields[.date] = HTTPDate.format(date) }
        return AuthResponse(status: .ok, headerFields: fields, body: Data())
    }

    @Test func inStepTheSecondTheRequestLeftInBoundsTheIssueTime() {
        let sent = Date(timeIntervalSince1970: 1_800_000_010.9)
        // Minted at once, answered past the boundary: the Date says :11, the token is :10's.
        let issued = TokenResponse.issuedAt(Self.answer(date: Date(timeIntervalSince1970: 1_800_000_011)), sent: sent, received: sent.addingTimeInterval(0.3))
        #expect(issued == Date(timeIntervalSince1970: 1_800_000_010))
        // Within one second, the Date and the sending agree.
        let quick = TokenResponse.issuedAt(Self.answer(date: Date(timeIntervalSince1970: 1_800_000_010)), sent: sent, received: sent.addingTimeInterval(0.05))
        #expect(quick == Date(timeIntervalSince1970: 1_800_000_010))
    }

    /// A server 0.58 s ahead mints a token at 1.55 s (its clock) for a request sent at 0.93 s
    /// (the local clock: 1.51 s on the server's) and stamps `Date: 1`; the answer arrives at
    /// 1.01 s. Read on the local clock, the request left in second 0, and the token counted as
    /// issued a second before it was: due at once, renewed again in the same second.
    @Test func theSendingIsPlacedOnTheServersClock() {
        let second = 1_800_000_000.0
        let sent = Date(timeIntervalSince1970: second + 0.93)
        let answer = Self.answer(date: Date(timeIntervalSince1970: second + 1))
        let received = Date(timeIntervalSince1970: second + 1.01)
        #expect(TokenResponse.issuedAt(answer, sent: sent, received: received, serverClockOffset: 0.58) == Date(timeIntervalSince1970: second + 1))
        // The renewing session's offset is the default.
        TokenResponse.$serverClockOffset.withValue(0.58) {
            #expect(TokenResponse.issuedAt(answer, sent: sent, received: received) == Date(timeIntervalSince1970: second + 1))
        }
        // Without it, the clocks are taken to agree.
        #expect(TokenResponse.issuedAt(answer, sent: sent, received: received) == Date(timeIntervalSince1970: second))
    }

    @Test func aServerWhoseClockDiffersIsTakenAtItsDate() {
        let sent = Date(timeIntervalSince1970: 1_800_000_010.5)
        for offset in [-3_600.0, -5, 5, 3_600] {
            let date = Date(timeIntervalSince1970: (sent.timeIntervalSince1970 + offset).rounded(.down))
            #expect(TokenResponse.issuedAt(Self.answer(date: date), sent: sent, received: sent.addingTimeInterval(0.2)) == date)
        }
    }

    @Test func withoutADateTheSendingTimeIsTheIssueTime() {
        let sent = Date(timeIntervalSince1970: 1_800_000_010.5)
        #expect(TokenResponse.issuedAt(Self.answer(date: nil), sent: sent, received: sent.addingTimeInterval(3)) == sent)
    }
}
