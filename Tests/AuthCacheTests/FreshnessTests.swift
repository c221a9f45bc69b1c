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

/// Freshness and validation rules (RFC 9111 §4), with a manual clock and an in-process origin.
@Suite struct FreshnessTests {
    @Test func maxAgeKeepsAResponseFreshUntilItsAgeReachesIt() async throws {
        let clock = ManualClock()
        let origin = TestOrigin.fixed([.cacheControl: "max-age=10"])
        let client = origin.client(cache: ResponseCache(), clock: clock)
        _ = try await client.send(.get, testURL("/a"))
        clock.advance(by: 9)
        let hit = try await client.send(.get, testURL("/a"))
        #expect(text(hit) == "#1")
        #expect(hit.head.headerFields[.age] == "9")
        clock.advance(by: 1)
        #expect(text(try await client.send(.get, testURL("/a"))) == "#2")
        #expect(origin.count == 2)
    }

    @Test func theAgeHeaderCountsAgainstFreshness() async throws {
        let clock = ManualClock()
        let origin = TestOrigin.fixed([.cacheControl: "max-age=60", .age: "50"])
        let client = origin.client(cache: ResponseCache(), clock: clock)
        _ = try await client.send(.get, testURL("/a"))
        clock.advance(by: 9)
        #expect(text(try await client.send(.get, testURL("/a"))) == "#1")
        clock.advance(by: 1)
        #expect(text(try await client.send(.get, testURL("/a"))) == "#2")
    }

    @Test func expiresMinusDateIsTheLifetimeWithoutMaxAge() async throws {
        let clock = ManualClock()
        let origin = TestOrigin { _, number in
            let now = clock.now()
            return AuthResponse(status: .ok, headerFields: [.date: HTTPDate.format(now), .expires: HTTPDate.format(now.addingTimeInterval(30))], body: Data("#\(number)".utf8))
        }
        let client = origin.client(cache: ResponseCache(), clock: clock)
        _ = try await client.send(.get, testURL("/a"))
        clock.advance(by: 29)
        #expect(text(try await client.send(.get, testURL("/a"))) == "#1")
        clock.advance(by: 1)
        #expect(text(try await client.send(.get, testURL("/a"))) == "#2")
    }

    @Test func maxAgeWinsOverExpires() async throws {
        let clock = ManualClock()
        let origin = TestOrigin.fixed([.cacheControl: "max-age=100", .expires: "Thu, 01 Jan 1970 00:00:00 GMT"])
        let client = origin.client(cache: ResponseCache(), clock: clock)
        _ = try await client.send(.get, testURL("/a"))
        clock.advance(by: 50)
        #expect(text(try await client.send(.get, testURL("/a"))) == "#1")
    }

    @Test func anInvalidExpiresMeansAlreadyStale() async throws {
        let origin = TestOrigin.fixed([.expires: "0", .eTag: "\"e\""])
        let client = origin.client(cache: ResponseCache(), clock: ManualClock())
        _ = try await client.send(.get, testURL("/a"))
        _ = try await client.send(.get, testURL("/a"))
        #expect(origin.count == 2)
        #expect(origin.requests[1].headerFields[.ifNoneMatch] == "\"e\"")
    }

    @Test func theDefaultLifetimeAppliesToResponsesWithoutDirectives() async throws {
        let clock = ManualClock()
        let origin = TestOrigin.fixed([:])
        let client = origin.client(cache: ResponseCache(configuration: .init(defaultLifetime: .seconds(30))), clock: clock)
        _ = try await client.send(.get, testURL("/a"))
        clock.advance(by: 29)
        #expect(text(try await client.send(.get, testURL("/a"))) == "#1")
        clock.advance(by: 1)
        #expect(text(try await client.send(.get, testURL("/a"))) == "#2")
    }

    @Test func withoutDirectivesOrValidatorNothingIsStoredByDefault() async throws {
        let cache = ResponseCache()
        let origin = TestOrigin.fixed([:])
        let client = origin.client(cache: cache, clock: ManualClock())
        _ = try await client.send(.get, testURL("/a"))
        _ = try await client.send(.get, testURL("/a"))
        #expect(origin.count == 2)
        #expect(cache.statistics.entryCount == 0)
    }

    @Test func responseNoCacheIsStoredButRevalidatedEveryTime() async throws {
        let origin = TestOrigin { request, number in
            if request.head.headerFields[.ifNoneMatch] == "\"v\"" { return AuthResponse(status: .notModified, headerFields: [.eTag: "\"v\""]) }
            return AuthResponse(status: .ok, headerFields: [.cacheControl: "no-cache", .eTag: "\"v\""], body: Data("#\(number)".utf8))
        }
        let client = origin.client(cache: ResponseCache(), clock: ManualClock())
        for _ in 0..<3 { #expect(text(try await client.send(.get, testURL("/a"))) == "#1") }
        #expect(origin.count == 3)
        #expect(origin.requests.dropFirst().allSatisfy { $0.headerFields[.ifNoneMatch] == "\"v\"" })
    }

    @Test func requestNoCacheAndMaxAgeForceRevalidation() async throws {
        let clock = ManualClock()
        let origin = TestOrigin.fixed([.cacheControl: "max-age=600", .eTag: "\"v\""])
        let client = origin.client(cache: ResponseCache(), clock: clock)
        _ = try await client.send(.get, testURL("/a"))
        _ = try await client.send(.get, testURL("/a"), headerFields: [.cacheControl: "no-cache"])
        clock.advance(by: 20)
        _ = try await client.send(.get, testURL("/a"), headerFields: [.cacheControl: "max-age=10"])
        _ = try await client.send(.get, testURL("/a"), headerFields: [.cacheControl: "max-age=100"])
        #expect(origin.count == 3)
        #expect(origin.requests[1].headerFields[.ifNoneMatch] == "\"v\"")
    }

    @Test func onlyIfCachedAnswers504WhenNothingIsStored() async throws {
        let origin = TestOrigin.fixed([.cacheControl: "max-age=60"])
        let client = origin.client(cache: ResponseCache(), clock: ManualClock())
        let response = try await client.send(.get, testURL("/a"), headerFields: [.cacheControl: "only-if-cached"])
        #expect(response.status == .gatewayTimeout)
        #expect(origin.count == 0)
    }

    @Test func uncacheableStatusesAreNotStoredAndA404Is() async throws {
        let origin = TestOrigin { request, number in
            let status: HTTPResponse.Status = request.head.path == "/missing" ? .notFound : .internalServerError
            return AuthResponse(status: status, headerFields: [.cacheControl: "max-age=60"], body: Data("#\(number)".utf8))
        }
        let client = origin.client(cache: ResponseCache(), clock: ManualClock())
        for _ in 0..<2 {
            _ = try await client.send(.get, testURL("/missing"))
            _ = try await client.send(.get, testURL("/broken"))
        }
        #expect(origin.requests.map { $0.path ?? "" } == ["/missing", "/broken", "/broken"])
    }

    @Test func aSuccessfulPostInvalidatesTheURL() async throws {
        let origin = TestOrigin.fixed([.cacheControl: "max-age=60"])
        let client = origin.client(cache: ResponseCache(), clock: ManualClock())
        _ = try await client.send(.get, testURL("/items"))
        _ = try await client.send(.get, testURL("/items"))
        _ = try await client.send(.post, testURL("/items"), body: Data("new".utf8))
        #expect(text(try await client.send(.get, testURL("/items"))) == "#3")
    }

    @Test func varySelectsTheStoredVariant() async throws {
        let origin = TestOrigin.fixed([.cacheControl: "max-age=60", .vary: "Accept-Language"])
        let client = origin.client(cache: ResponseCache(), clock: ManualClock())
        let english: HTTPFields = [.acceptLanguage: "en"]
        _ = try await client.send(.get, testURL("/a"), headerFields: english)
        #expect(text(try await client.send(.get, testURL("/a"), headerFields: english)) == "#1")
        #expect(text(try await client.send(.get, testURL("/a"), headerFields: [.acceptLanguage: "fr"])) == "#2")
    }

    @Test func varyStarIsNeverStored() async throws {
        let origin = TestOrigin.fixed([.cacheControl: "max-age=60", .vary: "*"])
        let client = origin.client(cache: ResponseCache(), clock: ManualClock())
        _ = try await client.send(.get, testURL("/a"))
        _ = try await client.send(.get, testURL("/a"))
        #expect(origin.count == 2)
    }

    @Test func headAndGetAreStoredSeparatelyAndCallerConditionalsPassThrough() async throws {
        let origin = TestOrigin.fixed([.cacheControl: "max-age=60", .eTag: "\"v\""])
        let client = origin.client(cache: ResponseCache(), clock: ManualClock())
        _ = try await client.send(.get, testURL("/a"))
        _ = try await client.send(.head, testURL("/a"))
        _ = try await client.send(.head, testURL("/a"))
        _ = try await client.send(.get, testURL("/a"), headerFields: [.ifNoneMatch: "\"v\""])
        #expect(origin.requests.map(\.method) == [.get, .head, .get])
    }
}
