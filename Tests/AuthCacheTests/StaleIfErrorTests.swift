// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCache
import AuthCore
import AuthTesting
import Foundation
import HTTPTypes
import Synchronization
import Testing

/// Serving a stale response while the origin fails (RFC 5861 `stale-if-error`).
@Suite struct StaleIfErrorTests {
    /// How the test origin answers: normally, with a failure status, or not at all.
    final class Health: Sendable {
        enum State: Sendable { case up, status(Int), unreachable, failing(AuthError) }
        private let state = Mutex(State.up)
        func set(_ new: State) { state.withLock { $0 = new } }
        var current: State { state.withLock { $0 } }
    }

    static func origin(_ fields: HTTPFields, health: Health) -> TestOrigin {
        TestOrigin { _, number in
            switch health.current {
            case .up: return AuthResponse(status: .ok, headerFields: fields, body: Data("#\(number)".utf8))
            case .unreachable: throw AuthError.transport("connection refused")
            case .failing(let error): throw error
            case .status(let code): return AuthResponse(status: .init(code: code), body: Data("failed".utf8))
            }
        }
    }

    /// A revalidation sent before a PUT that succeeded, and failing after it, is not answered
    /// with the entry from before the write: the caller gets the error. Before, it got the old
    /// document, right after its own write.
    @Test func aStaleEntryIsNotServedAfterAWriteThatSucceededMeanwhile() async throws {
        let clock = ManualClock()
        let cache = ResponseCache()
        let phase = Mutex((gets: 0, held: false, released: false))
        let transport = ClosureTransport { request in
            if request.head.method == .put { return AuthResponse(status: .noContent) }
            let number = phase.withLock { $0.gets += 1; return $0.gets }
            if number == 1 {
                return AuthResponse(status: .ok, headerFields: [.cacheControl: "max-age=10, stale-if-error=60"], body: Data("#1".utf8))
            }
            phase.withLock { $0.held = true }
            while !phase.withLock({ $0.released }) { try await Task.sleep(for: .milliseconds(5)) }
            throw AuthError.transport("connection reset")
        }
        let client = AuthClient(transport: transport, middlewares: [CacheMiddleware(cache: cache, account: AccountKey(namespace: "api", account: "alice"), clock: clock)])
        _ = try await client.send(.get, testURL("/a"))
        clock.advance(by: 20)
        let revalidating = Task { try await client.send(.get, testURL("/a")) }
        while !phase.withLock({ $0.held }) { try await Task.sleep(for: .milliseconds(5)) }
        #expect(try await client.send(.put, testURL("/a"), body: Data("v2".utf8)).status == .noContent)
        phase.withLock { $0.released = true }
        await #expect(throws: AuthError.self) { try await revalidating.value }
        #expect(cache.statistics.staleServed == 0)
    }

    @Test func aTransportErrorIsAnsweredWithTheStaleEntryWithinTheWindow() async throws {
        let clock = ManualClock()
        let health = Health()
        let cache = ResponseCache()
        let client = Self.origin([.cacheControl: "max-age=10, stale-if-error=60"], health: health).client(cache: cache, clock: clock)
        _ = try await client.send(.get, testURL("/a"))
        health.set(.unreachable)
        clock.advance(by: 69)
        let stale = try await client.send(.get, testURL("/a"))
        #expect(text(stale) == "#1")
        #expect(stale.head.headerFields[.age] == "69")
        #expect(cache.statistics.staleServed == 1)

        clock.advance(by: 1)
        await #expect(throws: AuthError.self) { try await client.send(.get, testURL("/a")) }
    }

    /// Only a server that cannot be reached gets the stale entry: a request that failed for its
    /// account (signed out, a new sign-in needed, refused by the app's access gate) did before
    /// the fix, so a signed-out user still read their cached private answers.
    @Test(arguments: [
        AuthError.notSignedIn(AccountKey(namespace: "api", account: "alice")),
        AuthError.reauthenticationRequired(AccountKey(namespace: "api", account: "alice"), reason: "refresh token revoked"),
        AuthError(code: .accessDenied, message: "the user declined"),
    ])
    func anErrorOfTheAccountIsThrownNotAnsweredWithTheStaleEntry(error: AuthError) async throws {
        let clock = ManualClock()
        let health = Health()
        let cache = ResponseCache()
        let client = Self.origin([.cacheControl: "max-age=10, stale-if-error=600"], health: health).client(cache: cache, clock: clock)
        _ = try await client.send(.get, testURL("/a"))
        clock.advance(by: 20)
        health.set(.failing(error))
        let thrown = await #expect(throws: AuthError.self) { try await client.send(.get, testURL("/a")) }
        #expect(thrown?.code == error.code)
        #expect(cache.statistics.staleServed == 0)
        health.set(.failing(AuthError(code: .timeout, message: "no answer within 30 s")))
        #expect(text(try await client.send(.get, testURL("/a"))) == "#1")
    }

    @Test func aServerFailureIsAnsweredWithTheStaleEntryAndTheEntryIsKept() async throws {
        let clock = ManualClock()
        let health = Health()
        let client = Self.origin([.cacheControl: "max-age=10"], health: health)
            .client(cache: ResponseCache(configuration: .init(staleIfError: .seconds(300))), clock: clock)
        _ = try await client.send(.get, testURL("/a"))
        clock.advance(by: 20)
        for code in [500, 502, 503, 504] {
            health.set(.status(code))
            #expect(text(try await client.send(.get, testURL("/a"))) == "#1")
        }
        health.set(.status(404))
        #expect(try await client.send(.get, testURL("/a")).status == .notFound)
        health.set(.up)
        #expect(text(try await client.send(.get, testURL("/a"))) == "#7")
    }

    @Test func mustRevalidateIsNeverServedStale() async throws {
        let clock = ManualClock()
        let health = Health()
        let client = Self.origin([.cacheControl: "max-age=10, must-revalidate, stale-if-error=600"], health: health)
            .client(cache: ResponseCache(configuration: .init(staleIfError: .seconds(600))), clock: clock)
        _ = try await client.send(.get, testURL("/a"))
        clock.advance(by: 20)
        health.set(.status(503))
        #expect(try await client.send(.get, testURL("/a")).status == .serviceUnavailable)
    }

    @Test func withoutAWindowTheFailureReachesTheCaller() async throws {
        let clock = ManualClock()
        let health = Health()
        let client = Self.origin([.cacheControl: "max-age=10"], health: health).client(cache: ResponseCache(), clock: clock)
        _ = try await client.send(.get, testURL("/a"))
        clock.advance(by: 20)
        health.set(.status(503))
        #expect(try await client.send(.get, testURL("/a")).status == .serviceUnavailable)
    }
}
