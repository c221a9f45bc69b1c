// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthTesting
import Foundation
import HTTPTypes
import Testing

/// A refusal that a renewal cannot fix fails the request with a typed error instead of renewing
/// again and again until the renewal budget runs out (issue 17).
@Suite struct NonRenewableFailureTests {
    /// A bearer strategy whose server also wants a CSRF header this client never sends.
    struct CSRFStrategy: AuthStrategy {
        let bearer: BearerStrategy
        var allowedHosts: AllowedHosts { bearer.allowedHosts }
        func renew(_ credential: BearerTokenSet?, context: RenewalContext) async throws -> BearerTokenSet {
            try await bearer.renew(credential, context: context)
        }
        func nonRenewableFailure(_ response: AuthResponse, for request: AuthRequest) -> AuthError? {
            String(decoding: response.body, as: UTF8.self).contains("CSRF") ? AuthError(code: .csrfRejected, message: "csrf") : nil
        }
    }

    @Test func aRefusalTheStrategyNamesRenewsNothing() async throws {
        let refresher = CountingRefresher()
        let clock = ManualClock()
        let session = AccountSession(
            account: alice,
            strategy: CSRFStrategy(bearer: BearerStrategy(allowedHosts: apiHosts) { try await refresher.refresh($0, expiresIn: 600, now: clock.now()) }),
            vault: CredentialVault(store: InMemoryCredentialStore(), clock: clock), clock: clock)
        try await session.signIn(BearerTokenSet(accessToken: "token-0", refreshToken: "r", expiresAt: clock.now().addingTimeInterval(600)))
        let transport = ClosureTransport { _ in AuthResponse(status: .unauthorized, body: Data(#"{"msg":"Missing CSRF token"}"#.utf8)) }
        for _ in 0..<10 {
            await #expect(throws: AuthError.self) {
                do { _ = try await client(session, transport: transport).send(.post, apiURL) } catch let error as AuthError {
                    #expect(error.code == .csrfRejected)
                    throw error
                }
            }
        }
        #expect(refresher.count == 0)
    }

    @Test func aSecondRefusalRightAfterARenewalIsATypedErrorNotAResponse() async throws {
        let refresher = CountingRefresher()
        let clock = ManualClock()
        let session = makeSession(clock: clock) { try await refresher.refresh($0, expiresIn: 600, now: clock.now()) }
        try await session.signIn(BearerTokenSet(accessToken: "token-0", refreshToken: "r", expiresAt: clock.now().addingTimeInterval(600)))
        let sent = Answers([AuthResponse(status: .unauthorized)])
        let transport = ClosureTransport { _ in sent.next() }
        do {
            _ = try await client(session, transport: transport).send(.get, apiURL)
            Issue.record("a second 401 after the renewal must throw")
        } catch let error as AuthError {
            #expect(error.code == .rejectedAfterRenewal)
            #expect(error.status == 401)
            #expect(error.account == alice)
        }
        #expect(refresher.count == 1)
    }

    @Test func aRenewalThatHelpsStillAnswersWithTheResponse() async throws {
        let api = FakeAPI()
        let clock = ManualClock()
        let refresher = CountingRefresher { api.accept("token-\($0)") }
        let session = makeSession(clock: clock) { try await refresher.refresh($0, expiresIn: 600, now: clock.now()) }
        try await session.signIn(BearerTokenSet(accessToken: "stale", refreshToken: "r", expiresAt: clock.now().addingTimeInterval(600)))
        #expect(try await client(session, transport: api.transport).send(.get, apiURL).status == .ok)
        #expect(refresher.count == 1)
    }
}
