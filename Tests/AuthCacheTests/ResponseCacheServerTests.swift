// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCache
import AuthCore
import AuthHTTPClient
import AuthTestServer
import AuthTesting
import Foundation
import HTTPTypes
import Testing

/// The response cache against the real AuthTestServer (its `/cache` endpoints) over AsyncHTTPClient:
/// what reaches the server, and what the caller gets.
@Suite struct ResponseCacheServerTests {
    static let alice = AccountKey(namespace: "api", account: "alice")

    /// A client of `alice` with the cache outermost; the clock starts at the real time because
    /// the server's `Date` header does.
    static func client(_ transport: any Transport, cache: ResponseCache, clock: ManualClock) -> AuthClient {
        AuthClient(transport: transport, middlewares: [CacheMiddleware(cache: cache, account: alice, clock: clock)])
    }

    @Test func aHitDoesNotReachTheServerAndAMissDoes() async throws {
        try await CacheServer.run { server, transport in
            let cache = ResponseCache()
            let clock = ManualClock(start: Date())
            let client = Self.client(transport, cache: cache, clock: clock)
            let url = server.url("cache/max-age/60")

            let first = try await client.send(.get, url)
            let second = try await client.send(.get, url)
            #expect(server.cacheHits("max-age") == 1)
            #expect(second.body == first.body)
            #expect(String(decoding: second.body, as: UTF8.self) == "max-age 60 #1")
            #expect(second.head.headerFields[.age] != nil)

            clock.advance(by: 61)
            let third = try await client.send(.get, url)
            #expect(server.cacheHits("max-age") == 2)
            #expect(String(decoding: third.body, as: UTF8.self) == "max-age 60 #2")
            let statistics = cache.statistics
            #expect(statistics.hits == 1)
            #expect(statistics.misses == 2)
        }
    }

    /// A GET answered with the document as it was before a PUT that succeeded while the GET was
    /// on its way (the server holds its answer until after the PUT's) is not stored: the next GET
    /// reaches the server and gets the new document.
    /// Before, the PUT removed the entry first and the late GET stored the old document after,
    /// which then answered for a minute, as if the write had not happened.
    @Test func aGetInFlightDuringASuccessfulPutIsNotStored() async throws {
        try await CacheServer.run { server, transport in
            let cache = ResponseCache()
            let client = Self.client(transport, cache: cache, clock: ManualClock(start: Date()))
            let url = server.url("cache/document")
            #expect(try await client.send(.put, url, body: Data("v1".utf8)).status == .noContent)

            let slow = Task { try await client.send(.get, url, headerFields: [CacheEndpoints.holdField: "1"]) }
            // The server has read the document for the held GET before the PUT changes it.
            let deadline = ContinuousClock.now + .seconds(60)
            while server.cacheHits("document.get") < 1, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
            try #require(server.cacheHits("document.get") == 1)
            #expect(try await client.send(.put, url, body: Data("v2".utf8)).status == .noContent)
            // Released only once the PUT's answer went through the cache (sent around it).
            #expect(try await transport.send(AuthRequest(method: .post, url: server.url("cache/document/release"))).status == .noContent)
            #expect(String(decoding: try await slow.value.body, as: UTF8.self) == "document v1 #1")

            let next = try await client.send(.get, url)
            #expect(String(decoding: next.body, as: UTF8.self) == "document v2 #2")
            #expect(server.cacheHits("document.get") == 2)
            // That answer is stored as usual.
            #expect(String(decoding: try await client.send(.get, url).body, as: UTF8.self) == "document v2 #2")
            #expect(server.cacheHits("document.get") == 2)
        }
    }

    @Test func a304RefreshesTheEntryWithoutABody() async throws {
        try await CacheServer.run { server, transport in
            let cache = ResponseCache()
            let clock = ManualClock(start: Date())
            let wire = RecordingTransport(transport)
            let client = Self.client(wire, cache: cache, clock: clock)
            let url = server.url("cache/etag")

            _ = try await client.send(.get, url)
            // The request's own no-cache makes the fresh entry revalidate (advancing the manual
            // clock would age the server's real Date header too).
            let revalidated = try await client.send(.get, url, headerFields: [.cacheControl: "no-cache"])

            #expect(server.cacheHits("etag.200") == 1)
            #expect(server.cacheHits("etag.304") == 1)
            let exchanges = wire.exchanges
            try #require(exchanges.count == 2)
            #expect(exchanges[1].request.headerFields[.ifNoneMatch] == CacheEndpoints.etag)
            #expect(exchanges[1].status == 304)
            #expect(exchanges[1].bodyBytes == 0)
            #expect(revalidated.status == .ok)
            #expect(String(decoding: revalidated.body, as: UTF8.self) == "etag body #1")

            // The 304 made the entry fresh again: the next request does not reach the server.
            _ = try await client.send(.get, url)
            #expect(server.cacheHits("etag") == 2)
            #expect(cache.statistics.revalidations == 1)
        }
    }

    @Test func lastModifiedRevalidatesWithIfModifiedSince() async throws {
        try await CacheServer.run { server, transport in
            let wire = RecordingTransport(transport)
            let client = Self.client(wire, cache: ResponseCache(), clock: ManualClock(start: Date()))
            let url = server.url("cache/last-modified")

            let first = try await client.send(.get, url)
            let second = try await client.send(.get, url)

            #expect(server.cacheHits("last-modified.200") == 1)
            #expect(server.cacheHits("last-modified.304") == 1)
            #expect(wire.exchanges.last?.request.headerFields[.ifModifiedSince] == CacheEndpoints.lastModified)
            #expect(second.body == first.body)
        }
    }

    @Test func noStoreIsNeverStored() async throws {
        try await CacheServer.run { server, transport in
            let cache = ResponseCache()
            let client = Self.client(transport, cache: cache, clock: ManualClock(start: Date()))
            let url = server.url("cache/no-store")
            var bodies: [String] = []
            for _ in 0..<3 { bodies.append(String(decoding: try await client.send(.get, url).body, as: UTF8.self)) }
            #expect(server.cacheHits("no-store") == 3)
            #expect(bodies == ["no-store #1", "no-store #2", "no-store #3"])
            #expect(cache.entryCount(for: Self.alice) == 0)
        }
    }

    @Test func setCookieResponsesAreNotStoredButPrivateOnesAre() async throws {
        try await CacheServer.run { server, transport in
            let cache = ResponseCache()
            let client = Self.client(transport, cache: cache, clock: ManualClock(start: Date()))
            for _ in 0..<2 {
                _ = try await client.send(.get, server.url("cache/set-cookie"))
                _ = try await client.send(.get, server.url("cache/private"))
            }
            #expect(server.cacheHits("set-cookie") == 2)
            #expect(server.cacheHits("private") == 1)
            #expect(cache.paths(for: Self.alice) == ["/cache/private"])
        }
    }

    @Test func aRefusedBearerTokenIsNotStoredAndAnonymousAnswersAre() async throws {
        try await CacheServer.run { server, transport in
            let cache = ResponseCache()
            let client = Self.client(transport, cache: cache, clock: ManualClock(start: Date()))
            let url = server.url("cache/user")
            for _ in 0..<2 {
                let refused = try await client.send(.get, url, headerFields: [.authorization: "Bearer not-a-token"])
                #expect(refused.status == .unauthorized)
            }
            #expect(server.cacheHits("user") == 2)
            #expect(cache.entryCount(for: Self.alice) == 0)

            let anonymous = try await client.send(.get, url)
            #expect(String(decoding: anonymous.body, as: UTF8.self) == "user anonymous #3")
            #expect(String(decoding: try await client.send(.get, url).body, as: UTF8.self) == "user anonymous #3")
            #expect(server.cacheHits("user") == 3)
        }
    }
}
