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
import Testing

/// Every answer of the cache to a request it looked up names what it did in `Cache-Status`
/// (RFC 9211), after the origin's own members, and the stored copy never carries it.
@Suite struct CacheStatusTests {
    func statuses(_ response: AuthResponse) -> [String] {
        response.head.headerFields.filter { $0.name == .cacheStatus }.map(\.value)
    }

    @Test func missHitRevalidationAndStaleEachNameThemselves() async throws {
        let clock = ManualClock()
        let origin = TestOrigin { request, number in
            // The last request (its own no-cache) finds the origin failing.
            if request.head.headerFields[.cacheControl] == "no-cache" { return AuthResponse(status: .serviceUnavailable) }
            if request.head.headerFields[.ifNoneMatch] == "\"v1\"" { return AuthResponse(status: .notModified, headerFields: [.eTag: "\"v1\""]) }
            return AuthResponse(status: .ok, headerFields: [.cacheControl: "max-age=10, stale-if-error=600", .eTag: "\"v1\"", .cacheStatus: "origin-cdn; hit"], body: Data("#\(number)".utf8))
        }
        let cache = ResponseCache()
        let client = origin.client(cache: cache, clock: clock)
        let url = testURL("/a")

        let miss = try await client.send(.get, url)
        #expect(statuses(miss) == ["origin-cdn; hit", "AuthKit; fwd=uri-miss"] && miss.cacheOutcome == .miss)
        let hit = try await client.send(.get, url)
        #expect(statuses(hit) == ["origin-cdn; hit", "AuthKit; hit"] && hit.cacheOutcome == .hit)
        clock.advance(by: 20)
        let revalidated = try await client.send(.get, url)
        #expect(statuses(revalidated).last == "AuthKit; fwd=stale; fwd-status=304" && revalidated.cacheOutcome == .revalidated)
        #expect(statuses(try await client.send(.get, url)) == ["origin-cdn; hit", "AuthKit; hit"], "one AuthKit member: the stored copy has none")

        clock.advance(by: 20)
        let unsatisfied = try await client.send(.get, testURL("/b"), headerFields: [.cacheControl: "only-if-cached"])
        #expect(unsatisfied.status == .gatewayTimeout && statuses(unsatisfied) == ["AuthKit; detail=only-if-cached"])
        let stale = try await client.send(.get, url, headerFields: [.cacheControl: "no-cache"])
        #expect(text(stale) == "#1" && statuses(stale).last == "AuthKit; fwd=stale; fwd-status=503; detail=stale-if-error")
        #expect(stale.cacheOutcome == .stale)

        let statistics = cache.statistics
        #expect((statistics.hits, statistics.misses, statistics.revalidations, statistics.staleServed) == (2, 2, 1, 1))
    }

    /// A server's own `AuthKit` member is not this cache's answer: a request the cache does not
    /// look up keeps what the server sent and gets no outcome.
    @Test func aRequestTheCacheDoesNotLookUpGetsNoMemberAndNoOutcome() async throws {
        let origin = TestOrigin.fixed([.cacheControl: "max-age=60", .cacheStatus: "AuthKit; hit"])
        let client = origin.client(cache: ResponseCache(), clock: ManualClock())
        let post = try await client.send(.post, testURL("/a"), body: Data("x".utf8))
        #expect(statuses(post) == ["AuthKit; hit"] && post.cacheOutcome == nil)
        let noStore = try await client.send(.get, testURL("/a"), headerFields: [.cacheControl: "no-store"])
        #expect(statuses(noStore) == ["AuthKit; hit"] && noStore.cacheOutcome == nil)
    }

    /// A miss is counted when it is found, so one whose request fails counts too; a server
    /// failure with no stale entry to stand in is a miss, named with the server's status.
    @Test func failedFetchesAreMisses() async throws {
        let clock = ManualClock()
        let failing = TestOrigin { _, number in
            if number == 1 || number == 4 { throw AuthError.transport("connection refused") }
            if number == 3 { return AuthResponse(status: .serviceUnavailable) }
            return AuthResponse(status: .ok, headerFields: [.cacheControl: "max-age=10"], body: Data("#\(number)".utf8))
        }
        let cache = ResponseCache()
        let client = failing.client(cache: cache, clock: clock)
        await #expect(throws: AuthError.self) { try await client.send(.get, testURL("/a")) }
        #expect(cache.statistics.misses == 1)
        _ = try await client.send(.get, testURL("/a"))
        clock.advance(by: 20)
        let failed = try await client.send(.get, testURL("/a"))
        #expect(failed.status == .serviceUnavailable && statuses(failed) == ["AuthKit; fwd=stale; fwd-status=503"])
        #expect(failed.cacheOutcome == .miss && cache.statistics.misses == 3)
        // The entry is still stale, with no stale-if-error window: the failure is thrown, a miss.
        await #expect(throws: AuthError.self) { try await client.send(.get, testURL("/a")) }
        #expect(cache.statistics.misses == 4)
    }
}
