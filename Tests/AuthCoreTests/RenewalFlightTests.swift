// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

@testable import AuthCore
import AuthTesting
import Foundation
import HTTPTypes
import Testing

/// How requests share one renewal: who starts it, who waits for it, what each waiter gets.
@Suite struct RenewalFlightTests {
    @Test func cancellingTheRequestThatStartedARenewalDoesNotCancelIt() async throws {
        let clock = ManualClock()
        let api = FakeAPI()
        api.accept("token-1")
        // Task.sleep throws when its task is cancelled, so a renewal running in the first
        // request's task would fail here, and every waiter with it.
        let refresher = CountingRefresher(delay: .milliseconds(100))
        let store = InMemoryCredentialStore()
        let session = makeSession(store: store, clock: clock) { try await refresher.refresh($0, expiresIn: 3600, now: clock.now()) }
        try await session.signIn(BearerTokenSet(accessToken: "token-0", refreshToken: "refresh-0", expiresAt: clock.now().addingTimeInterval(-1)))
        let pipeline = client(session, transport: api.transport)

        let first = Task { try await pipeline.send(.get, apiURL).status.code }
        for _ in 0..<6_000 where refresher.count == 0 { try await Task.sleep(for: .milliseconds(5)) }
        #expect(refresher.count == 1, "the first request did not start a renewal")
        let others = Task {
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<20 { group.addTask { try await pipeline.send(.get, apiURL).status.code } }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
        }
        first.cancel()

        let statuses = try await others.value
        #expect(statuses == Array(repeating: 200, count: 20))
        #expect(refresher.count == 1)
        _ = try? await first.value
        let stored = try await CredentialVault(store: store, clock: clock).load(BearerTokenSet.self, for: alice)
        #expect(stored?.accessToken.reveal == "token-1")
    }

    @Test func aWaiterAfterTheEndGetsTheResultAtOnceAndOnlyTheFirstEndCounts() async throws {
        let flight = RenewalFlight<String>()
        flight.finish(.success("renewed"))
        flight.finish(.failure(AuthError(code: .reauthenticationRequired, message: "too late")))
        #expect(try await flight.value == "renewed")
    }

    @Test func aFailureReachesEveryWaiter() async throws {
        let flight = RenewalFlight<String>()
        let waiters = (0..<10).map { _ in Task { try await flight.value } }
        try await Task.sleep(for: .milliseconds(20))
        flight.finish(.failure(AuthError(code: .reauthenticationRequired, message: "invalid_grant")))
        for waiter in waiters {
            await #expect { try await waiter.value } throws: { ($0 as? AuthError)?.code == .reauthenticationRequired }
        }
    }
}
