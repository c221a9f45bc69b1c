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

/// The entry and byte limits, and the order in which entries leave.
@Suite struct EvictionTests {
    static let alice = AccountKey(namespace: "api", account: "alice")

    @Test func theLeastRecentlyUsedEntryIsEvictedFirst() async throws {
        let cache = ResponseCache(configuration: .init(maxEntries: 3))
        let origin = TestOrigin.fixed([.cacheControl: "max-age=600"])
        let client = origin.client(cache: cache, clock: ManualClock())
        for path in ["/a", "/b", "/c", "/a", "/d"] { _ = try await client.send(.get, testURL(path)) }

        #expect(cache.paths(for: Self.alice) == ["/c", "/a", "/d"])
        #expect(cache.statistics.evictions == 1)
        _ = try await client.send(.get, testURL("/a"))
        _ = try await client.send(.get, testURL("/b"))
        #expect(origin.requests.map { $0.path ?? "" } == ["/a", "/b", "/c", "/d", "/b"])
        #expect(cache.paths(for: Self.alice) == ["/d", "/a", "/b"])
    }

    @Test func theByteCapHoldsUnderABurstOfDistinctURLs() async throws {
        let maxBytes = 64 << 10
        let cache = ResponseCache(configuration: .init(maxEntries: 100_000, maxBytes: maxBytes))
        let body = Data(repeating: 0x61, count: 1000)
        let origin = TestOrigin { _, _ in AuthResponse(status: .ok, headerFields: [.cacheControl: "max-age=600"], body: body) }
        let client = origin.client(cache: cache, clock: ManualClock())
        var largest = 0
        for index in 0..<2000 {
            _ = try await client.send(.get, testURL("/item/\(index)"))
            largest = max(largest, cache.statistics.byteCount)
        }
        let statistics = cache.statistics
        #expect(largest <= maxBytes)
        #expect(statistics.byteCount > maxBytes - 2 * 1200)
        #expect(statistics.stores == 2000)
        #expect(statistics.evictions == 2000 - statistics.entryCount)

        // The survivors are exactly the most recent URLs, in order.
        let expected = (2000 - statistics.entryCount..<2000).map { "/item/\($0)" }
        #expect(cache.paths(for: Self.alice) == expected)
        _ = try await client.send(.get, testURL("/item/1999"))
        _ = try await client.send(.get, testURL("/item/0"))
        #expect(origin.count == 2001)
    }

    @Test func theBudgetIsSharedButEachAccountKeepsItsOwnEntries() async throws {
        let cache = ResponseCache(configuration: .init(maxEntries: 2))
        let origin = TestOrigin.fixed([.cacheControl: "max-age=600"])
        let bob = AccountKey(namespace: "api", account: "bob")
        let asAlice = origin.client(cache: cache, clock: ManualClock())
        let asBob = origin.client(cache: cache, clock: ManualClock(), account: bob)
        _ = try await asAlice.send(.get, testURL("/a"))
        _ = try await asBob.send(.get, testURL("/a"))
        _ = try await asBob.send(.get, testURL("/b"))
        #expect(cache.entryCount(for: Self.alice) == 0)
        #expect(cache.paths(for: bob) == ["/a", "/b"])
    }

    @Test func aResponseLargerThanTheEntryLimitPassesThroughUnstored() async throws {
        let cache = ResponseCache(configuration: .init(maxEntryBytes: 4096))
        let origin = TestOrigin { request, _ in
            let size = request.head.path == "/big" ? 8192 : 100
            return AuthResponse(status: .ok, headerFields: [.cacheControl: "max-age=600"], body: Data(count: size))
        }
        let client = origin.client(cache: cache, clock: ManualClock())
        for _ in 0..<2 {
            #expect(try await client.send(.get, testURL("/big")).body.count == 8192)
            _ = try await client.send(.get, testURL("/small"))
        }
        #expect(origin.requests.map { $0.path ?? "" } == ["/big", "/small", "/big"])
    }
}
