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
import Foundation
import HTTPTypes
import Synchronization
import Testing

/// Two signed-in users of one container, one cache: neither ever receives the other's response,
/// and signing out forgets only the one who left.
@Suite struct AccountPartitionTests {
    static let alice = AccountKey(namespace: "api", account: "alice")
    static let bob = AccountKey(namespace: "api", account: "bob")

    static func body(_ response: AuthResponse) -> String { String(decoding: response.body, as: UTF8.self) }

    @Test func twoUsersGetTheirOwnResponsesAndSignOutPurgesOnlyOne() async throws {
        try await CacheServer.run { server, transport in
            let (purges, purged) = AsyncStream<AccountKey>.makeStream()
            let container = AuthContainer()
            container.useHTTPClient(transport)
            container.useResponseCache { account, _ in purged.yield(account) }
            let strategy = StaticCredentialStrategy<BasicCredential>(allowedHosts: AllowedHosts(origin: server.baseURL))
            let alice = container.makeClient(for: Self.alice, strategy: strategy)
            let bob = container.makeClient(for: Self.bob, strategy: strategy)
            try await alice.signIn(BasicCredential(username: "alice", password: "alice-password"))
            try await bob.signIn(BasicCredential(username: "bob", password: "bob-password"))
            let url = server.url("cache/user")

            #expect(Self.body(try await alice.send(.get, url)) == "user alice #1")
            #expect(Self.body(try await bob.send(.get, url)) == "user bob #2")
            #expect(Self.body(try await alice.send(.get, url)) == "user alice #1")
            #expect(Self.body(try await bob.send(.get, url)) == "user bob #2")
            #expect(server.cacheHits("user") == 2)

            let cache = container[ResponseCacheKey.self]
            try await alice.signOut()
            var iterator = purges.makeAsyncIterator()
            #expect(await iterator.next() == Self.alice)
            #expect(cache.entryCount(for: Self.alice) == 0)
            #expect(cache.entryCount(for: Self.bob) == 1)

            // Bob's entry is still served; Alice, signed in again, goes to the server.
            #expect(Self.body(try await bob.send(.get, url)) == "user bob #2")
            try await alice.signIn(BasicCredential(username: "alice", password: "alice-password"))
            #expect(Self.body(try await alice.send(.get, url)) == "user alice #3")
            #expect(server.cacheHits("user") == 3)
        }
    }

    /// The purge followed the sign-out event a moment later: a request made as soon as
    /// `signOut()` returned could still be answered from the account's entries (here, another
    /// user's sign-in under the same "current user" key). It is now done before `signOut()`
    /// returns.
    @Test func aSignOutHasPurgedTheAccountWhenItReturns() async throws {
        try await CacheServer.run { server, transport in
            let (purges, purged) = AsyncStream<AccountKey>.makeStream()
            let container = AuthContainer()
            container.useHTTPClient(transport)
            container.useResponseCache { account, _ in purged.yield(account) }
            let strategy = StaticCredentialStrategy<BasicCredential>(allowedHosts: AllowedHosts(origin: server.baseURL))
            let current = container.makeClient(for: Self.alice, strategy: strategy)
            let cache = container[ResponseCacheKey.self]
            let url = server.url("cache/user")
            try await current.signIn(BasicCredential(username: "alice", password: "alice-password"))
            _ = try await current.send(.get, url)
            #expect(cache.entryCount(for: Self.alice) == 1)

            try await current.signOut()
            #expect(cache.entryCount(for: Self.alice) == 0, "signOut() returned before the purge")
            try await current.signIn(BasicCredential(username: "bob", password: "bob-password"))
            #expect(Self.body(try await current.send(.get, url)).hasPrefix("user bob"), "served the signed-out user's answer")
            var iterator = purges.makeAsyncIterator()
            #expect(await iterator.next() == Self.alice)  // the event's purge still comes
        }
    }

    @Test func theConfiguredAccountPartitionsEvenWhenTheCallerSetsAuthorization() async throws {
        let cache = ResponseCache()
        let served = ServedCount()
        let transport = ClosureTransport { request in
            served.add()
            return AuthResponse(status: .ok, headerFields: [.cacheControl: "max-age=60"], body: Data("for \(request.head.headerFields[.authorization] ?? "-")".utf8))
        }
        let asAlice = AuthClient(transport: transport, middlewares: [CacheMiddleware(cache: cache, account: Self.alice)])
        let asBob = AuthClient(transport: transport, middlewares: [CacheMiddleware(cache: cache, account: Self.bob)])
        let url = try #require(URL(string: "https://api.example.com/profile"))

        _ = try await asAlice.send(.get, url, headerFields: [.authorization: "Bearer bob-token"])
        let bobs = try await asBob.send(.get, url)

        #expect(served.value == 2)
        #expect(Self.body(bobs) == "for -")
        #expect(cache.entryCount(for: Self.alice) == 1)
        #expect(cache.entryCount(for: Self.bob) == 1)
    }

    @Test func reauthenticationRequiredPurgesTheAccount() async throws {
        let cache = ResponseCache()
        let events = AuthEvents()
        let (purges, purged) = AsyncStream<AccountKey>.makeStream()
        cache.observe(events) { account, _ in purged.yield(account) }
        let transport = ClosureTransport { _ in AuthResponse(status: .ok, headerFields: [.cacheControl: "max-age=60"], body: Data("x".utf8)) }
        let url = try #require(URL(string: "https://api.example.com/a"))
        for account in [Self.alice, Self.bob] {
            _ = try await AuthClient(transport: transport, middlewares: [CacheMiddleware(cache: cache, account: account)]).send(.get, url)
        }

        events.emit(.renewed(Self.bob))
        events.emit(.reauthenticationRequired(Self.alice, reason: "refresh token revoked"))
        var iterator = purges.makeAsyncIterator()
        #expect(await iterator.next() == Self.alice)
        #expect(cache.entryCount(for: Self.alice) == 0)
        #expect(cache.entryCount(for: Self.bob) == 1)
    }
}

/// Counts how many requests reached a test transport.
final class ServedCount: Sendable {
    private let count = Mutex(0)
    func add() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
