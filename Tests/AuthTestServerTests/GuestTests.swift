// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthTestServer
import Foundation
import Testing

@Suite struct GuestTests {
    @Test func guestNeedsADeviceID() async throws {
        try await withServer { server, http in
            let missing = try await http.send("POST", "/auth/guest")
            #expect(missing.status == 400)
            #expect(try missing.string("error") == "invalid_request")
            let blank = try await http.send("POST", "/auth/guest", headers: [("X-Device-ID", "  ")])
            #expect(blank.status == 400)
            #expect(server.counters.guestSessions == 0)
        }
    }

    @Test func guestTokenIdentifiesTheDevice() async throws {
        try await withServer { server, http in
            let guest = try await http.send("POST", "/auth/guest", headers: [("X-Device-ID", "device-42")])
            #expect(guest.status == 200)
            let body = try guest.json()
            #expect(body["expires_in"] as? Int == 60)
            #expect(body["refresh_token"] == nil)

            let me = try await http.get("/me", bearer: body.string("access_token"))
            #expect(me.status == 200)
            let meBody = try me.json()
            #expect(meBody["user_id"] as? String == "guest:device-42")
            #expect(meBody["device_id"] as? String == "device-42")
            #expect(meBody["guest"] as? Bool == true)
            #expect(server.counters.guestSessions == 1)
        }
    }

    @Test func guestTokenExpiresAfterItsShortLifetime() async throws {
        let clock = ServerClock()
        try await withServer(.init(lifetimes: .init(guest: 30), clock: clock)) { _, http in
            let guest = try await http.send("POST", "/auth/guest", headers: [("X-Device-ID", "d1")])
            let access = try guest.string("access_token")
            #expect(try guest.json()["expires_in"] as? Int == 30)
            clock.advance(by: 31)
            #expect(try await http.get("/me", bearer: access).status == 401)
        }
    }
}
