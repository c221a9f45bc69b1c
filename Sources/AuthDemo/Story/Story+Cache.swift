// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCache
import AuthCore
import AuthHTTPClient
import AuthOAuth2
import AuthTestServer
import Foundation
import HTTPTypes

extension Story {
    /// Two users behind one response cache: each gets their own answer for the same URL, repeats
    /// stay in the client (the server's hit counters show it), an ETag revalidation costs a
    /// bodiless 304, and signing out forgets only the leaving user's entries.
    ///
    /// The step uses a container of its own (the cache must be installed before clients are
    /// built) with an in-memory store, and two users of its own, so it leaves the story's
    /// users and SQLite store untouched.
    func cachedResponsesStep() async {
        await report.step("Cached responses for two users, with ETag revalidation") {
            let cacheContainer = AuthContainer()
            cacheContainer.useHTTPClient(transport)
            cacheContainer.useResponseCache(.init(maxBytes: 1 << 20))
            let cache = cacheContainer[ResponseCacheKey.self]
            let refresher = OAuth2RefreshTokenRefresher(tokenEndpoint: base.appending(path: "auth/refresh"), clientID: "auth-demo", transport: transport)
            var clients: [AccountClient<BearerStrategy>] = []
            for name in ["dave", "erin"] {
                try await register(name)
                let client = cacheContainer.makeClient(for: AccountKey(namespace: "demo", account: name), strategy: BearerStrategy(allowedHosts: hosts, refresher: refresher))
                try await client.signIn(try await signIn(name))
                clients.append(client)
            }
            let (dave, erin) = (clients[0], clients[1])
            func hits(_ name: String) -> Int { server.counters.count(CacheEndpoints.counter(name)) }
            func text(_ response: AuthResponse) -> String { String(decoding: response.body, as: UTF8.self) }

            // The same URL twice per user: one server hit per user, and each sees their own answer.
            let user = base.appending(path: "cache/user")
            let userHitsBefore = hits("user")
            var answers: [String] = []
            for client in [dave, erin, dave, erin] { answers.append(text(try await client.send(.get, user))) }
            let userHits = hits("user") - userHitsBefore
            try check(answers[0].hasPrefix("user dave #") && answers[1].hasPrefix("user erin #"), "answers \(answers)")
            try check(answers[2] == answers[0] && answers[3] == answers[1], "repeats answered \(answers[2...])")
            try check(userHits == 2, "the server counted \(userHits) hits for 4 requests, expected 2")

            // An ETag: a forced revalidation is a 304 from the server and the stored body for dave.
            let etag = base.appending(path: "cache/etag")
            let (fullBefore, notModifiedBefore) = (hits("etag.200"), hits("etag.304"))
            let first = try await dave.send(.get, etag)
            let revalidated = try await dave.send(.get, etag, headerFields: [.cacheControl: "no-cache"])
            _ = try await dave.send(.get, etag)
            let (full, notModified) = (hits("etag.200") - fullBefore, hits("etag.304") - notModifiedBefore)
            try check(full == 1 && notModified == 1, "the server sent \(full) full answers and \(notModified) 304s, expected 1 and 1")
            try check(revalidated.status == .ok && revalidated.body == first.body, "the revalidated answer differs")

            // Dave signs out: his entries go, erin's stay.
            let daveEntries = cache.entryCount(for: dave.account)
            try await dave.signOut()
            var waited = 0
            while cache.entryCount(for: dave.account) > 0, waited < 200 {
                try await Task.sleep(for: .milliseconds(10))
                waited += 1
            }
            let (daveLeft, erinLeft) = (cache.entryCount(for: dave.account), cache.entryCount(for: erin.account))
            try check(daveLeft == 0 && erinLeft == 1, "after sign-out dave has \(daveLeft) entries, erin \(erinLeft)")
            let erinAgain = text(try await erin.send(.get, user))
            try check(erinAgain == answers[1] && hits("user") - userHitsBefore == 2, "erin's entry was not served")

            let statistics = cache.statistics
            return "4 requests for /cache/user, 2 server hits (each user got their own); ETag revalidated with a 304; "
                + "dave's sign-out purged his \(daveEntries) entries, erin's 1 remains (\(statistics.hits) hits, \(statistics.revalidations) revalidation)"
        }
    }
}
