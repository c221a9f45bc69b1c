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

        #expect(statuses(try await client.send(.get, url)) == ["origin-cdn; hit", "AuthKit; fwd=uri-miss"])
        #expect(statuses(try await client.send(.get, url)) == ["origin-cdn; hit", "AuthKit; hit"])
        clock.advance(by: 20)
        #expect(statuses(try await client.send(.get, url)).last == "AuthKit; fwd=stale; fwd-status=304")
        #expect(statuses(try await client.send(.get, url)) == ["origin-cdn; hit", "AuthKit; hit"], "one AuthKit member: the stored copy has none")

        clock.advance(by: 20)
        let unsatisfied = try await client.send(.get, testURL("/b"), headerFields: [.cacheControl: "only-if-cached"])
        #expect(unsatisfied.status == .gatewayTimeout && statuses(unsatisfied) == ["AuthKit; detail=only-if-cached"])
        let stale = try await client.send(.get, url, headerFields: [.cacheControl: "no-cache"])
        #expect(text(stale) == "#1" && statuses(stale).last == "AuthKit; hit; detail=stale-if-error")

        let statistics = cache.statistics
        #expect((statistics.hits, statistics.misses, statistics.revalidations, statistics.staleServed) == (2, 2, 1, 1))
    }

    @Test func aRequestTheCacheDoesNotLookUpGetsNoMember() async throws {
        let origin = TestOrigin.fixed([.cacheControl: "max-age=60"])
        let client = origin.client(cache: ResponseCache(), clock: ManualClock())
        #expect(statuses(try await client.send(.post, testURL("/a"), body: Data("x".utf8))).isEmpty)
        #expect(statuses(try await client.send(.get, testURL("/a"), headerFields: [.cacheControl: "no-store"])).isEmpty)
    }
}
