// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthTestServer
import AuthTesting
import Foundation
import HTTPTypes
import Testing

@Suite struct BearerFlowTests {
    /// Issue 51: a resource server that answers a rejected token with 403 and
    /// `WWW-Authenticate: Bearer error="invalid_token"` (RFC 6750 §3.1 says 401, servers do
    /// this) gets a renewed token; a 403 for `insufficient_scope` is no renewal either, but a
    /// step-up (issue 55): `AuthError.stepUpRequired` naming the scope the resource asks for.
    @Test func aForbiddenWithAnInvalidTokenChallengeRenewsButInsufficientScopeDoesNot() async throws {
        try await Harness.run { h in
            let client = try await h.signedInClient("alice", container: h.container())
            let renewals = h.server.counters.renewals
            h.server.faults.inject(.response(status: 403, headers: ["WWW-Authenticate": #"Bearer realm="api", error="invalid_token""#], body: ""), path: "/me")
            #expect(try await client.send(.get, h.url("me")).status == .ok)
            #expect(h.server.counters.renewals == renewals + 1)

            h.server.faults.inject(.response(status: 403, headers: ["WWW-Authenticate": #"Bearer error="insufficient_scope", scope="admin""#], body: ""), path: "/me")
            let error = await #expect(throws: AuthError.self) { try await client.send(.get, h.url("me")) }
            #expect(error?.code == .stepUpRequired)
            #expect((error?.underlying as? StepUpChallenge)?.scope == ["admin"], "\(String(describing: error))")
            #expect(h.server.counters.renewals == renewals + 1)
        }
    }

    @Test func twoUsersSignedInAtOnce() async throws {
        try await Harness.run { h in
            let container = h.container()
            let alice = try await h.signedInClient("alice", container: container)
            let bob = try await h.signedInClient("bob", container: container)
            async let a = alice.json(Me.self, .get, h.url("me"))
            async let b = bob.json(Me.self, .get, h.url("me"))
            let (meA, meB) = try await (a, b)
            #expect(meA.username == "alice")
            #expect(meB.username == "bob")
            #expect(meA.user_id != meB.user_id)
        }
    }

    @Test func fiveHundredConcurrentRequestsAcrossExpiryRenewOncePerUser() async throws {
        try await Harness.run { h in
            let container = h.container()
            let users = [try await h.signedInClient("alice", container: container), try await h.signedInClient("bob", container: container)]
            _ = try await users[0].json(Me.self, .get, h.url("me"))
            h.server.resetCounters()
            h.server.clock.advance(by: 301)  // past the 300 s access-token lifetime

            let names = try await withThrowingTaskGroup(of: String?.self) { group in
                for index in 0..<500 {
                    let client = users[index % 2]
                    group.addTask { try await client.json(Me.self, .get, h.url("me")).username }
                }
                return try await group.reduce(into: [String?]()) { $0.append($1) }
            }
            #expect(names.count == 500)
            #expect(names.filter { $0 == "alice" }.count == 250)
            #expect(names.filter { $0 == "bob" }.count == 250)
            let counters = h.server.counters
            #expect(counters.renewals == 2)
            #expect(counters.rejectedReuse == 0)
        }
    }

    @Test func revokedRefreshTokenRequiresReauthenticationAndFailsFast() async throws {
        try await Harness.run { h in
            let container = h.container()
            let recorder = EventRecorder(container[AuthEventsKey.self])
            let alice = try await h.signedInClient("alice", container: container)
            _ = await h.server.revokeRefreshTokens(username: "alice")
            h.server.clock.advance(by: 301)
            await #expect { try await alice.send(.get, h.url("me")) } throws: { ($0 as? AuthError)?.code == .reauthenticationRequired }
            let before = h.server.counters
            for _ in 0..<5 {
                await #expect { try await alice.send(.get, h.url("me")) } throws: { ($0 as? AuthError)?.code == .reauthenticationRequired }
            }
            // Failing fast: nothing more reached the server.
            #expect(h.server.counters.requests(path: "/me") == before.requests(path: "/me"))
            #expect(h.server.counters.requests(path: "/auth/refresh") == before.requests(path: "/auth/refresh"))
            let events = await recorder.waitFor { $0.contains { if case .reauthenticationRequired = $0 { true } else { false } } }
            #expect(events.contains { if case .reauthenticationRequired(let account, _) = $0 { account.account == "alice" } else { false } })
            // Signing in again recovers.
            try await alice.signIn(try await h.login("alice"))
            #expect(try await alice.json(Me.self, .get, h.url("me")).username == "alice")
        }
    }

    @Test func malformedJSONFromTheServerIsATypedErrorAndKeepsStoredCredentials() async throws {
        try await Harness.run { h in
            let store = InMemoryCredentialStore()
            let container = h.container(store: store)
            let alice = try await h.signedInClient("alice", container: container)
            let vault = CredentialVault(store: store)
            let stored = try await vault.load(BearerTokenSet.self, for: alice.account)
            h.server.faults.inject(.malformedJSON, path: "/auth/refresh", times: 1)
            h.server.clock.advance(by: 301)
            await #expect { try await alice.send(.get, h.url("me")) } throws: { ($0 as? AuthError)?.code == .decoding }
            #expect(try await vault.load(BearerTokenSet.self, for: alice.account) == stored)
            // The fault was transient: the next request renews and succeeds.
            #expect(try await alice.json(Me.self, .get, h.url("me")).username == "alice")

            h.server.faults.inject(.malformedJSON, path: "/me", times: 1)
            await #expect { try await alice.json(Me.self, .get, h.url("me")) } throws: { ($0 as? AuthError)?.code == .decoding }
            #expect(try await vault.load(BearerTokenSet.self, for: alice.account) != nil)
        }
    }
}

