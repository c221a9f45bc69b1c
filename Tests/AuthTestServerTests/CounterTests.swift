// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthTestServer
import Foundation
import Testing

@Suite struct CounterTests {
    @Test func countsLoginsRenewalsAndRequestsExactly() async throws {
        try await withServer { server, http in
            let login = try await http.signUp("alice")
            _ = try await http.postJSON("/auth/login", ["username": "alice", "password": "wrong"])
            let access = try login.string("access_token")
            for _ in 0..<3 { _ = try await http.get("/me", bearer: access) }
            _ = try await http.postJSON("/auth/refresh", ["refresh_token": login.string("refresh_token")])
            _ = try await http.send("POST", "/auth/guest", headers: [("X-Device-ID", "d")])

            let counters = server.counters
            #expect(counters.registrations == 1)
            #expect(counters.logins == 1)
            #expect(counters.renewals == 1)
            #expect(counters.rejectedReuse == 0)
            #expect(counters.guestSessions == 1)
            #expect(counters.requests(path: "/auth/login") == 2)
            #expect(counters.requests(path: "/me") == 3)
            #expect(counters.requests(path: "/auth/refresh") == 1)
            #expect(counters.requests(path: "/never") == 0)
        }
    }

    @Test func lastHeadersShowWhatWasAndWasNotSent() async throws {
        try await withServer { server, http in
            _ = try await http.get("/me", bearer: "first-token", headers: [("X-Custom", "one")])
            _ = try await http.get("/me", headers: [("X-Other", "two")])

            let last = server.counters.lastHeaders(path: "/me")
            #expect(last["x-other"] == "two")
            #expect(last["authorization"] == nil)
            #expect(last["x-custom"] == nil)
            #expect(last["host"] != nil)
            #expect(server.counters.lastHeaders(path: "/unused").isEmpty)
        }
    }

    @Test func resetCountersStartsFromZero() async throws {
        try await withServer { server, http in
            _ = try await http.signUp("bob")
            #expect(server.counters.logins == 1)
            server.resetCounters()
            #expect(server.counters == ServerCounters())
            _ = try await http.get("/echo")
            #expect(server.counters.requests(path: "/echo") == 1)
            #expect(server.counters.logins == 0)
        }
    }
}
