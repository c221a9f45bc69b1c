// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCache
import AuthCore
import AuthTestServer
import Foundation
import HTTPTypes
import Testing

/// The response cache installed in a container, in front of bearer clients of real users of
/// the test server: what each user gets, what reaches the server, and what sign-out forgets.
@Suite(.timeLimit(.minutes(2))) struct CacheIntegrationTests {
    static func text(_ response: AuthResponse) -> String { String(decoding: response.body, as: UTF8.self) }

    @Test func eachUserGetsTheirOwnCachedResponseAndSignOutForgetsOnlyTheirs() async throws {
        try await Harness.run { h in
            let container = h.container()
            let (purges, purged) = AsyncStream<AccountKey>.makeStream()
            container.useResponseCache(.init()) { account, _ in purged.yield(account) }
            let alice = try await h.signedInClient("alice", container: container)
            let bob = try await h.signedInClient("bob", container: container)
            let url = h.url("cache/user")
            let hits = { h.server.counters.count(CacheEndpoints.counter("user")) }

            // Same URL, two users: the server answers each from their own bearer token.
            #expect(Self.text(try await alice.send(.get, url)) == "user alice #1")
            #expect(Self.text(try await bob.send(.get, url)) == "user bob #2")
            #expect(hits() == 2)

            // The second fetches are hits: the same bodies, and nothing more reached the server.
            #expect(Self.text(try await alice.send(.get, url)) == "user alice #1")
            #expect(Self.text(try await bob.send(.get, url)) == "user bob #2")
            #expect(hits() == 2)
            #expect(h.server.counters.requests(path: "/cache/user") == 2)

            // Alice signs out: her entry goes, Bob's stays and is still served.
            let cache = container[ResponseCacheKey.self]
            try await alice.signOut()
            var iterator = purges.makeAsyncIterator()
            #expect(await iterator.next() == alice.account)
            #expect(cache.entryCount(for: alice.account) == 0)
            #expect(cache.entryCount(for: bob.account) == 1)
            #expect(Self.text(try await bob.send(.get, url)) == "user bob #2")

            // Signed out, Alice gets no stored answer; signed in again, she goes to the server.
            await #expect { try await alice.send(.get, url) } throws: { ($0 as? AuthError)?.code == .notSignedIn }
            #expect(hits() == 2)
            try await alice.signIn(try await h.login("alice"))
            #expect(Self.text(try await alice.send(.get, url)) == "user alice #3")
            #expect(hits() == 3)
        }
    }

    @Test func revalidationCarriesTheUsersTokenAndA304KeepsTheStoredBody() async throws {
        try await Harness.run { h in
            let container = h.container()
            container.useResponseCache()
            let alice = try await h.signedInClient("alice", container: container)
            let url = h.url("cache/etag")

            let first = try await alice.send(.get, url)
            // The request's own no-cache makes the fresh entry revalidate.
            let revalidated = try await alice.send(.get, url, headerFields: [.cacheControl: "no-cache"])

            let counters = h.server.counters
            #expect(counters.count(CacheEndpoints.counter("etag.200")) == 1)
            #expect(counters.count(CacheEndpoints.counter("etag.304")) == 1)
            let sent = counters.lastHeaders(path: "/cache/etag")
            #expect(sent["if-none-match"] == CacheEndpoints.etag)
            #expect(sent["authorization"]?.hasPrefix("Bearer ") == true)
            #expect(revalidated.status == .ok)
            #expect(revalidated.body == first.body)
            #expect(Self.text(revalidated) == "etag body #1")

            // The 304 made the entry fresh again: the next fetch stays in the client.
            _ = try await alice.send(.get, url)
            #expect(h.server.counters.count(CacheEndpoints.counter("etag")) == 2)
            #expect(container[ResponseCacheKey.self].statistics.revalidations == 1)
        }
    }
}
