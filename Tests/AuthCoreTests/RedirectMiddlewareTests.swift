// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Foundation
import HTTPTypes
import Synchronization
import Testing

@Suite struct RedirectMiddlewareTests {
    /// Redirects `/start` to `location` with `status`, answers 200 elsewhere; records every hop.
    final class Hops: Sendable {
        let seen = Mutex<[AuthRequest]>([])
        func transport(status: HTTPResponse.Status, location: String) -> ClosureTransport {
            ClosureTransport { request in
                self.seen.withLock { $0.append(request) }
                if request.head.path?.hasPrefix("/start") == true {
                    return AuthResponse(status: status, headerFields: [.location: location])
                }
                return AuthResponse(status: .ok)
            }
        }
        var all: [AuthRequest] { seen.withLock { $0 } }
    }

    func start(_ url: String = "https://api.example.com/start?api_key=K3Y&page=2") throws -> AuthRequest {
        try AuthRequest(method: .get, url: URL(string: url)!, headerFields: [.authorization: "Bearer T0K3N", .cookie: "sid=C00K1E", .accept: "application/json"])
    }

    @Test(arguments: ["https://other.example.net/landing?api_key=K3Y", "http://api.example.com/landing?api_key=K3Y"])
    func crossOriginOrDowngradeStripsCredentials(location: String) async throws {
        let hops = Hops()
        let client = AuthClient(transport: hops.transport(status: .found, location: location), middlewares: [RedirectMiddleware()])
        #expect(try await client.send(start()).status == .ok)
        let last = try #require(hops.all.last)
        #expect(last.head.headerFields[.authorization] == nil)
        #expect(last.head.headerFields[.cookie] == nil)
        #expect(last.head.path == "/landing")
        #expect(last.head.headerFields[.accept] == "application/json")
    }

    @Test func sameOriginKeepsHeaders() async throws {
        let hops = Hops()
        let client = AuthClient(transport: hops.transport(status: .temporaryRedirect, location: "/landing?api_key=K3Y"), middlewares: [RedirectMiddleware()])
        _ = try await client.send(start())
        let last = try #require(hops.all.last)
        #expect(last.head.authority == "api.example.com")
        #expect(last.head.headerFields[.authorization] == "Bearer T0K3N")
        #expect(last.head.headerFields[.cookie] == "sid=C00K1E")
        #expect(last.head.path == "/landing?api_key=K3Y")
    }

    @Test func seeOtherBecomesGetWithoutBody() async throws {
        let hops = Hops()
        let client = AuthClient(transport: hops.transport(status: .seeOther, location: "/result"), middlewares: [RedirectMiddleware()])
        var post = try AuthRequest(method: .post, url: URL(string: "https://api.example.com/start")!, body: Data("form=1".utf8))
        post.head.headerFields[.contentType] = "application/x-www-form-urlencoded"
        _ = try await client.send(post)
        let last = try #require(hops.all.last)
        #expect(last.head.method == .get)
        #expect(last.body.isEmpty)
        #expect(last.head.headerFields[.contentType] == nil)
    }

    @Test func permanentRedirectKeepsMethodAndBody() async throws {
        let hops = Hops()
        let client = AuthClient(transport: hops.transport(status: .permanentRedirect, location: "/moved"), middlewares: [RedirectMiddleware()])
        _ = try await client.send(AuthRequest(method: .post, url: URL(string: "https://api.example.com/start")!, body: Data("x".utf8)))
        let last = try #require(hops.all.last)
        #expect(last.head.method == .post)
        #expect(last.body == Data("x".utf8))
    }

    @Test func hopLimitHolds() async throws {
        let loop = ClosureTransport { _ in AuthResponse(status: .found, headerFields: [.location: "/start"]) }
        let client = AuthClient(transport: loop, middlewares: [RedirectMiddleware(maxHops: 3)])
        await #expect { try await client.send(start()) } throws: { ($0 as? AuthError)?.code == .redirect }
    }

    @Test func nonHTTPLocationIsATypedError() async throws {
        let bad = ClosureTransport { _ in AuthResponse(status: .found, headerFields: [.location: "javascript:alert(1)"]) }
        let client = AuthClient(transport: bad, middlewares: [RedirectMiddleware()])
        await #expect { try await client.send(start()) } throws: { ($0 as? AuthError)?.code == .redirect }
    }

    @Test func authenticationRunsAgainOnlyForAllowedHopHosts() async throws {
        let hops = Hops()
        let session = makeSession { $0 }
        try await session.signIn(BearerTokenSet(accessToken: "T0K3N", refreshToken: "r", expiresAt: nil))
        let client = AuthClient(transport: hops.transport(status: .found, location: "https://evil.example.org/x"), middlewares: [RedirectMiddleware(), AuthenticationMiddleware(session: session)])
        _ = try await client.send(AuthRequest(method: .get, url: URL(string: "https://api.example.com/start")!))
        let all = hops.all
        #expect(all.count == 2)
        #expect(all[0].head.headerFields[.authorization] == "Bearer T0K3N")
        #expect(all[1].head.headerFields[.authorization] == nil)
    }
}
