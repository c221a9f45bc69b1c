// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthHTTPClient
import AuthTestServer
import Foundation
import HTTPTypes
import Testing

@Suite struct ResilienceTests {
    @Test func tooManyRequestsWithRetryAfterIsWaitedOutAndRetriedOnce() async throws {
        try await Harness.run { h in
            let container = h.container()
            let alice = try await h.signedInClient("alice", container: container)
            h.server.faults.inject(.status(429, retryAfter: "1"), path: "/me", times: 1)
            h.server.resetCounters()
            let started = ContinuousClock.now
            #expect(try await alice.json(Me.self, .get, h.url("me")).username == "alice")
            #expect(h.server.counters.requests(path: "/me") == 2)
            #expect(ContinuousClock.now - started >= .milliseconds(900))
        }
    }

    @Test func serviceUnavailableTwiceThenSuccess() async throws {
        try await Harness.run { h in
            let client = h.container().makePublicClient()
            h.server.faults.inject(.status(503), path: "/echo", times: 2)
            let response = try await client.send(.get, h.url("echo"))
            #expect(response.status == .ok)
            #expect(h.server.counters.requests(path: "/echo") == 3)
        }
    }

    @Test func redirectToAnotherOriginCarriesNoCredentials() async throws {
        try await Harness.run { h in
            try await AuthTestServer.withRunning { other in
                let container = h.container()
                let alice = try await h.signedInClient("alice", container: container)
                let target = other.baseURL.appending(path: "echo").absoluteString
                h.server.faults.inject(.redirect(to: target, status: 302), path: "/me", times: 1)
                let response = try await alice.send(.get, h.url("me"))
                #expect(response.status == .ok)
                #expect(other.counters.requests(path: "/echo") == 1)
                #expect(other.counters.lastHeaders(path: "/echo")["authorization"] == nil)
                #expect(h.server.counters.lastHeaders(path: "/me")["authorization"]?.hasPrefix("Bearer ") == true)
            }
        }
    }

    @Test func guestSessionKeepsItsDeviceIDAcrossClients() async throws {
        try await Harness.run { h in
            let store = InMemoryCredentialStore()
            let account = AccountKey(namespace: "testserver", account: "guest")
            func guestClient() -> AccountClient<GuestStrategy> {
                h.container(store: store).makeClient(for: account, strategy: GuestStrategy(allowedHosts: h.hosts, endpoint: h.url("auth/guest"), transport: h.transport))
            }
            let first = try await guestClient().json(Me.self, .get, h.url("me"))
            #expect(first.guest)
            let device = try #require(first.device_id)
            #expect(h.server.counters.lastHeaders(path: "/auth/guest")["x-device-id"] == device)
            // A rebuilt client (as after a restart) with an expired guest token starts a new
            // session for the same device.
            h.server.clock.advance(by: 61)
            let second = try await guestClient().json(Me.self, .get, h.url("me"))
            #expect(second.device_id == device)
            #expect(h.server.counters.guestSessions == 2)
        }
    }
}
