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
import Synchronization
import Testing

@Suite struct RetryMiddlewareTests {
    /// Answers with the scripted statuses in order (then 200) and counts attempts.
    final class Script: Sendable {
        let responses: Mutex<[AuthResponse]>
        let attempts = Atomic<Int>(0)
        init(_ responses: [AuthResponse]) { self.responses = Mutex(responses) }
        var count: Int { attempts.load(ordering: .relaxed) }
        var transport: ClosureTransport {
            ClosureTransport { _ in
                self.attempts.add(1, ordering: .relaxed)
                return self.responses.withLock { $0.isEmpty ? AuthResponse(status: .ok) : $0.removeFirst() }
            }
        }
    }

    func retrying(_ script: Script, clock: ManualClock, policy: RetryPolicy = .init()) -> AuthClient {
        AuthClient(transport: script.transport, middlewares: [RetryMiddleware(policy: policy, clock: clock, random: { 1.0 })])
    }

    @Test func serviceUnavailableTwiceThenSuccess() async throws {
        let clock = ManualClock()
        let script = Script([AuthResponse(status: .serviceUnavailable), AuthResponse(status: .serviceUnavailable)])
        let response = try await retrying(script, clock: clock).send(.get, apiURL)
        #expect(response.status == .ok)
        #expect(script.count == 3)
        // Full jitter with random = 1 waits the whole ceiling: 200 ms, then 400 ms.
        #expect(clock.sleeps == [.milliseconds(200), .milliseconds(400)])
    }

    @Test func postIsNotRetriedUnlessItOptsIn() async throws {
        let clock = ManualClock()
        let script = Script([AuthResponse(status: .serviceUnavailable)])
        let refused = try await retrying(script, clock: clock).send(.post, apiURL, body: Data("x".utf8))
        #expect(refused.status == .serviceUnavailable)
        #expect(script.count == 1)

        let optedIn = Script([AuthResponse(status: .serviceUnavailable)])
        let response = try await retrying(optedIn, clock: clock).send(.post, apiURL, body: Data("x".utf8), options: RequestOptions(retryNonIdempotent: true))
        #expect(response.status == .ok)
        #expect(optedIn.count == 2)

        let keyed = Script([AuthResponse(status: .badGateway)])
        let withKey = try await retrying(keyed, clock: clock).send(.post, apiURL, headerFields: [HTTPField.Name("Idempotency-Key")!: "k1"])
        #expect(withKey.status == .ok)
        #expect(keyed.count == 2)
    }

    @Test func retryAfterSecondsIsHonoured() async throws {
        let clock = ManualClock()
        let script = Script([AuthResponse(status: .tooManyRequests, headerFields: [.retryAfter: "7"])])
        _ = try await retrying(script, clock: clock).send(.get, apiURL)
        #expect(clock.sleeps == [.seconds(7)])
    }

    @Test func retryAfterHTTPDateIsHonoured() async throws {
        let clock = ManualClock()
        let date = HTTPDate.format(clock.now().addingTimeInterval(12))
        let script = Script([AuthResponse(status: .serviceUnavailable, headerFields: [.retryAfter: date])])
        _ = try await retrying(script, clock: clock).send(.get, apiURL)
        #expect(clock.sleeps == [.seconds(12)])
    }

    @Test func retryAfterIsCapped() async throws {
        let clock = ManualClock()
        let script = Script([AuthResponse(status: .tooManyRequests, headerFields: [.retryAfter: "86400"])])
        _ = try await retrying(script, clock: clock, policy: RetryPolicy(maxRetryAfter: .seconds(5))).send(.get, apiURL)
        #expect(clock.sleeps == [.seconds(5)])
    }

    @Test func malformedRetryAfterFallsBackToBackoff() async throws {
        let clock = ManualClock()
        let script = Script([AuthResponse(status: .tooManyRequests, headerFields: [.retryAfter: "soon-ish, maybe"])])
        let response = try await retrying(script, clock: clock).send(.get, apiURL)
        #expect(response.status == .ok)
        #expect(clock.sleeps == [.milliseconds(200)])
    }

    @Test func attemptBudgetHolds() async throws {
        let clock = ManualClock()
        let script = Script(Array(repeating: AuthResponse(status: .serviceUnavailable), count: 10))
        let response = try await retrying(script, clock: clock, policy: RetryPolicy(maxAttempts: 4)).send(.get, apiURL)
        #expect(response.status == .serviceUnavailable)
        #expect(script.count == 4)
    }

    /// Whatever statuses a policy names, each one (and only those) is retried: the lowest and the
    /// highest of the set, one between, and none for an empty set.
    @Test(arguments: [[202, 409, 599], [], [503]])
    func exactlyThePolicysStatusesAreRetried(_ statuses: Set<Int>) async throws {
        for code in [200, 202, 204, 408, 409, 500, 503, 599] {
            let script = Script([AuthResponse(status: HTTPResponse.Status(code: code))])
            let response = try await retrying(script, clock: ManualClock(), policy: RetryPolicy(retryableStatuses: statuses)).send(.get, apiURL)
            let retried = statuses.contains(code)
            #expect(script.count == (retried ? 2 : 1), "\(code)")
            #expect(response.status.code == (retried ? 200 : code))
        }
    }

    @Test func totalTimeBudgetHolds() async throws {
        let clock = ManualClock()
        let script = Script(Array(repeating: AuthResponse(status: .tooManyRequests, headerFields: [.retryAfter: "30"]), count: 10))
        let response = try await retrying(script, clock: clock, policy: RetryPolicy(maxAttempts: 10, totalBudget: .seconds(70))).send(.get, apiURL)
        #expect(response.status == .tooManyRequests)
        #expect(script.count == 3)  // waits 30 + 30; a third wait would pass 70 s
    }

    @Test func transportErrorsAreRetried() async throws {
        let clock = ManualClock()
        let attempts = Atomic<Int>(0)
        let flaky = ClosureTransport { _ in
            if attempts.add(1, ordering: .relaxed).newValue == 1 { throw AuthError.transport("connection reset") }
            return AuthResponse(status: .ok)
        }
        let client = AuthClient(transport: flaky, middlewares: [RetryMiddleware(clock: clock, random: { 0.5 })])
        #expect(try await client.send(.get, apiURL).status == .ok)
        #expect(attempts.load(ordering: .relaxed) == 2)
    }

    @Test func cancellingTheTaskStopsTheWait() async throws {
        let script = Script([AuthResponse(status: .tooManyRequests, headerFields: [.retryAfter: "30"])])
        let client = AuthClient(transport: script.transport, middlewares: [RetryMiddleware(clock: SystemClock())])
        let task = Task { try await client.send(.get, apiURL) }
        while script.count == 0 { try await Task.sleep(for: .milliseconds(5)) }
        task.cancel()
        let result = await task.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(script.count == 1)
    }
}
