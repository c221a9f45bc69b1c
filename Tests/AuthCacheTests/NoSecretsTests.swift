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

/// Cached bodies and stored credentials never show up in a description or a dump.
@Suite struct NoSecretsTests {
    static func everyRendering(of value: Any) -> String {
        var dumped = ""
        dump(value, to: &dumped)
        return [String(describing: value), String(reflecting: value), dumped].joined(separator: "\n")
    }

    @Test func theResponseCacheAndItsMiddlewareShowNoBody() async throws {
        let cache = ResponseCache()
        let origin = TestOrigin { _, _ in
            AuthResponse(status: .ok, headerFields: [.cacheControl: "private, max-age=60", .eTag: "\"tag\""], body: Data("account-number-4242".utf8))
        }
        let middleware = CacheMiddleware(cache: cache, account: AccountKey(namespace: "api", account: "alice"), clock: ManualClock())
        _ = try await AuthClient(transport: origin.transport, middlewares: [middleware]).send(.get, testURL("/statement"))
        #expect(cache.statistics.entryCount == 1)
        for value in [cache, middleware, cache.statistics] as [Any] {
            #expect(!Self.everyRendering(of: value).contains("4242"))
        }
    }

    @Test func theCredentialCacheShowsNoPayload() async throws {
        let store = CachingCredentialStore(InMemoryCredentialStore(), clock: ManualClock())
        let key = CredentialKey(namespace: "api", account: "alice", item: "credential")
        try await store.put(Envelope(kind: "bearer", payload: Data("access-token-9999".utf8), updatedAt: Date()), for: key)
        _ = try await store.get(key)
        #expect(!Self.everyRendering(of: store).contains("9999"))
    }
}
