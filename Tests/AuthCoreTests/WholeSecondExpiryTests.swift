// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

@testable import AuthCore
import AuthOAuth2
import AuthTesting
import Foundation
import HTTPTypes
import Synchronization
import Testing

/// Issue 51: 2 s tokens from a server whose clock reads a little ahead of the client's and which
/// stamps whole seconds (PyJWT's `exp`, the `Date` field). A token issued late in a second lives
/// little more than a second; one the client renewed at three quarters of what it took for its
/// lifetime expired first on the server, every other time. Each such 401 counted against the
/// renewal budget, and after five in 30 s requests failed with `excessiveRenewal`.
@Suite struct WholeSecondExpiryTests {
    /// A server whose clock reads `ahead` seconds ahead of `clock` and stamps whole seconds:
    /// tokens expire the whole second `lifetime` after their issue (`exp`), as
    /// `OAuth2TokenEndpoint` reads them (`Date` plus `expires_in`), every answer carries a
    /// `Date`, and an expired token is refused with 401.
    final class WholeSecondServer: Sendable {
        struct State {
            var expiries: [String: Date] = [:]
            var refusals = 0
        }
        let clock: ManualClock
        let ahead: TimeInterval
        let lifetime: TimeInterval
        let state = Mutex(State())

        init(clock: ManualClock, ahead: TimeInterval, lifetime: TimeInterval = 2) {
            self.clock = clock
            self.ahead = ahead
            self.lifetime = lifetime
        }

        var now: Date { clock.now().addingTimeInterval(ahead) }
        var renewals: Int { state.withLock { $0.expiries.count } - 1 }
        var distinctExpiries: Int { Set(state.withLock { $0.expiries.values }).count }
        var refusals: Int { state.withLock { $0.refusals } }

        /// A new token set, issued now.
        func issue() -> BearerTokenSet {
            let second = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
            let expiry = second.addingTimeInterval(lifetime)
            let name = state.withLock { state in
                let name = "token-\(state.expiries.count)"
                state.expiries[name] = expiry
                return name
            }
            return BearerTokenSet(accessToken: name, refreshToken: "refresh-\(name)", expiresAt: expiry)
        }

        var transport: ClosureTransport {
            ClosureTransport { request in
                let token = (request.head.headerFields[.authorization] ?? "").replacingOccurrences(of: "Bearer ", with: "")
                let now = self.now
                let valid = self.state.withLock { state in
                    let valid = state.expiries[token].map { $0 > now } ?? false
                    if !valid { state.refusals += 1 }
                    return valid
                }
                return AuthResponse(status: valid ? .ok : .unauthorized, headerFields: [.date: HTTPDate.format(now)])
            }
        }
    }

    /// 30 s of requests 50 ms apart under the default policy: none fails, one race at most
    /// (before the session learns how far ahead the server's clock reads), and every renewal
    /// gives a token with a new expiry.
    @Test(arguments: [0.0, 0.6, 0.95])
    func twoSecondTokensFromAServerAheadRenewOncePerExpiry(serverClockAhead ahead: TimeInterval) async throws {
        let clock = ManualClock()
        let server = WholeSecondServer(clock: clock, ahead: ahead)
        let session = makeSession(clock: clock) { _ in server.issue() }
        try await Self.thirtySecondsOfRequests(session, server: server)
    }

    /// The same through a token response, as a refresher reads it (`TokenResponse.issuedAt`
    /// from the `Date` field and the sending time, the exchange taking 80 ms): every renewal
    /// gives a token with a new expiry. Once a refusal had taught the session that the server
    /// reads 0.6 s ahead, an exchange that crossed a local second read its token as issued a
    /// second early: due on arrival, renewed again in the second it was minted, same `exp`.
    @Test(arguments: [0.0, 0.6, 0.95])
    func twoSecondTokensReadFromTokenResponsesRenewOncePerExpiry(serverClockAhead ahead: TimeInterval) async throws {
        let clock = ManualClock()
        let server = WholeSecondServer(clock: clock, ahead: ahead)
        let session = makeSession(clock: clock) { _ in
            let sent = clock.now()
            clock.advance(by: 0.04)
            let minted = server.issue()
            clock.advance(by: 0.04)
            let answer = AuthResponse(status: .ok, headerFields: [.date: HTTPDate.format(server.now)])
            let issued = TokenResponse.issuedAt(answer, sent: sent, received: clock.now())
            return BearerTokenSet(accessToken: minted.accessToken.reveal, refreshToken: minted.refreshToken?.reveal, expiresAt: issued.addingTimeInterval(2))
        }
        try await Self.thirtySecondsOfRequests(session, server: server)
    }

    /// Signs `session` in and sends a request every 50 ms for 30 s by the server's clock: none
    /// fails, at most one is refused (the race at an expiry, before the session learns how far
    /// ahead the server's clock reads: no expiry read later than the server's), and every
    /// renewal gives a token with a new whole-second expiry, one per second at most.
    static func thirtySecondsOfRequests(_ session: AccountSession<BearerStrategy>, server: WholeSecondServer) async throws {
        try await session.signIn(server.issue())
        let pipeline = client(session, transport: server.transport)
        var failures: [AuthError.Code] = []
        for _ in 0..<600 {
            server.clock.advance(by: 0.05)
            do {
                #expect(try await pipeline.send(.get, apiURL).status == .ok)
            } catch let error as AuthError {
                failures.append(error.code)
            }
        }
        #expect(failures.isEmpty)
        #expect(server.refusals <= 1)
        #expect(server.renewals == server.distinctExpiries - 1, "\(server.renewals) renewals, \(server.distinctExpiries - 1) new expiries")
        #expect(server.renewals <= 32)  // one per whole-second expiry in 30 s
    }

    /// The race itself: a rejection of a credential in its last second renews without counting
    /// against the budget; one of a young credential, or long before its expiry, counts.
    @Test func aRejectionInTheLastSecondIsTheRaceAtExpiry() {
        let policy = RenewalPolicy()
        let obtained = Date(timeIntervalSince1970: 1_767_225_600.9)
        let expires = Date(timeIntervalSince1970: 1_767_225_602)  // 1.1 s later: issued late in a second
        func counts(at age: TimeInterval, uncertainty: TimeInterval = 0) -> Bool {
            policy.renewalCounts(expiresAt: expires, obtainedAt: obtained, now: obtained.addingTimeInterval(age), forcedByRejection: true, uncertainty: uncertainty)
        }
        #expect(!counts(at: 0.7))  // 0.4 s before its expiry by the client's clock
        #expect(!counts(at: 1.2))  // after it
        #expect(counts(at: 0.3))  // young: a server that refuses what it just issued
        let hour = Date(timeIntervalSince1970: 1_767_229_200.9)
        #expect(policy.renewalCounts(expiresAt: hour, obtainedAt: obtained, now: obtained.addingTimeInterval(3_000), forcedByRejection: true, uncertainty: 0))
        #expect(!policy.renewalCounts(expiresAt: hour, obtainedAt: obtained, now: hour.addingTimeInterval(-1.5), forcedByRejection: true, uncertainty: 2))
    }

    /// A server that refuses its own 2 s tokens spends the budget; the error says what to change.
    @Test func excessiveRenewalSaysWhatToChange() async throws {
        let clock = ManualClock()
        let server = WholeSecondServer(clock: clock, ahead: 0)
        let session = makeSession(clock: clock) { _ in server.issue() }
        try await session.signIn(server.issue())
        let pipeline = client(session, transport: ClosureTransport { _ in AuthResponse(status: .unauthorized) })
        var last: AuthError?
        for _ in 0..<10 {
            do { _ = try await pipeline.send(.get, apiURL) } catch let error as AuthError { last = error }
        }
        let error = try #require(last)
        #expect(error.code == .excessiveRenewal)
        #expect(error.message.contains("RenewalPolicy maxRenewals"))
        #expect(error.message.contains("lives 2.0 s"))
        #expect(error.message.contains("allow at least 16 renewals per 30"))
    }
}
