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
import Testing

/// A response that reaches the client slowly (here a transport that holds it back 2.5 s, as a
/// stalled machine or a long body does) does not make the server's clock look behind: before,
/// the client took a skew of about −2.5 s from it and kept using tokens that long past their
/// expiry. A server that is behind is still seen, at the latest its clock can be.
@Suite struct SlowResponseSkewTests {
    /// A client of `h` whose requests to `/me` come back 2.5 s after the server answered.
    static func slowClient(_ h: Harness) async throws -> AccountClient<BearerStrategy> {
        let container = h.container()
        container.override(TransportKey.self, with: ClosureTransport { request in
            let response = try await h.transport.send(request)
            if request.head.path == "/me" { try await Task.sleep(for: .milliseconds(2_500)) }
            return response
        })
        return try await h.signedInClient("alice", container: container)
    }

    @Test func aSlowResponseFromAServerInStepIsNoSkew() async throws {
        try await Harness.run { h in
            let client = try await Self.slowClient(h)
            #expect(try await client.send(.get, h.url("me")).status == .ok)
            #expect(client.session.clockSkew == 0)
        }
    }

    @Test func aServerBehindIsSeenThroughASlowResponse() async throws {
        try await Harness.run { h in
            let client = try await Self.slowClient(h)
            h.server.clock.advance(by: -100)
            #expect(try await client.send(.get, h.url("me")).status == .ok)
            // Stamped between the sending and 2.5 s before the arrival: no later than 1 s past
            // the sending by the server's clock (the header's resolution), and not much earlier.
            #expect(client.session.clockSkew > -100 && client.session.clockSkew < -90)
        }
    }
}
