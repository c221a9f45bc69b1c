// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
@testable import AuthOAuth2
import Foundation
import Testing

/// Issue 52: the loopback listener of a command-line sign-in, over real sockets on 127.0.0.1.
/// Reported: without `expect(state:)` the first request to the path ended the wait; the `Host`
/// field was not checked (DNS rebinding); accepted connections were never closed (300
/// half-open connections stayed after the wait ended).
@Suite(.timeLimit(.minutes(2)))
struct LoopbackRedirectListenerTests {
    static let state = "s-1"

    /// A pending authorization for `listener`'s redirect URI, with ``state``.
    static func pending(for listener: LoopbackRedirectListener) -> PendingAuthorization {
        PendingAuthorization(
            url: URL(string: "https://id.example/authorize")!, state: state, nonce: nil, pkce: PKCE(),
            redirectURI: listener.redirectURI, issuer: URL(string: "https://id.example")!
        )
    }

    /// Starts waiting on a task of its own.
    static func wait(_ listener: LoopbackRedirectListener, timeout: Duration = .seconds(60)) -> Task<URL, any Error> {
        let pending = pending(for: listener)
        return Task { try await listener.waitForRedirect(of: pending, timeout: timeout) }
    }

    /// Returns once the listener answers (its wait began), after a request for another path.
    static func accepting(_ port: Int) async throws {
        let probe = try await LoopbackClient.get(port: port, "/probe", host: "127.0.0.1:\(port)")
        #expect(probe.hasPrefix("HTTP/1.1 404"))
    }

    /// Opens `count` connections one after the other, each once the listener holds the one
    /// before (or after a second), so that they are accepted in the order they were opened.
    static func connect(_ count: Int, to listener: LoopbackRedirectListener, port: Int) async throws -> [LoopbackClient] {
        var clients: [LoopbackClient] = []
        for _ in 0..<count {
            let before = listener.openConnections
            clients.append(try await LoopbackClient(port: port))
            for _ in 0..<50 where listener.openConnections == before { try await Task.sleep(for: .milliseconds(20)) }
        }
        return clients
    }

    @Test func aRequestWithoutTheStateOrWithAnotherOneDoesNotEndTheWait() async throws {
        let listener = try await LoopbackRedirectListener.bind()
        let port = try #require(listener.redirectURI.port)
        let wait = Self.wait(listener)
        let host = "127.0.0.1:\(port)"
        let without = try await LoopbackClient.get(port: port, "/callback?code=x", host: host)
        #expect(without.hasPrefix("HTTP/1.1 400"))
        let other = try await LoopbackClient.get(port: port, "/callback?code=y&state=s-2", host: host)
        #expect(other.hasPrefix("HTTP/1.1 400"))
        let right = try await LoopbackClient.get(port: port, "/callback?code=z&state=s-1", host: host)
        #expect(right.hasPrefix("HTTP/1.1 200"))
        #expect(right.lowercased().contains("connection: close"))
        #expect(try await wait.value.absoluteString == "http://\(host)/callback?code=z&state=s-1")
    }

    @Test func aRequestForAnotherHostIsRefusedAndDoesNotEndTheWait() async throws {
        let listener = try await LoopbackRedirectListener.bind()
        let port = try #require(listener.redirectURI.port)
        let wait = Self.wait(listener)
        let target = "/callback?code=c&state=s-1"
        for host in ["evil.example:\(port)", "127.0.0.1:\(port + 1)", "localhost:\(port)", "127.0.0.1"] {
            let answer = try await LoopbackClient.get(port: port, target, host: host)
            #expect(answer.hasPrefix("HTTP/1.1 421"), "Host: \(host)")
        }
        let noHost = try await LoopbackClient.get(port: port, target, host: nil, version: "HTTP/1.0")
        #expect(noHost.hasPrefix("HTTP/1.0 400"))
        let right = try await LoopbackClient.get(port: port, target, host: "127.0.0.1:\(port)")
        #expect(right.hasPrefix("HTTP/1.1 200"))
        #expect(try await wait.value.absoluteString == "http://127.0.0.1:\(port)\(target)")
    }

    @Test func threeHundredIdleConnectionsAreAllClosedWhenTheWaitEnds() async throws {
        let listener = try await LoopbackRedirectListener.bind(connectionTimeout: .seconds(60))
        let port = try #require(listener.redirectURI.port)
        let wait = Self.wait(listener)
        try await Self.accepting(port)
        var clients: [LoopbackClient] = []
        for _ in 0..<300 { clients.append(try await LoopbackClient(port: port)) }
        try await Task.sleep(for: .milliseconds(200))
        await listener.close()
        await #expect { try await wait.value } throws: { ($0 as? AuthError)?.code == .authorizationFailed }
        #expect(await LoopbackClient.countOpen(clients, within: .seconds(30)) == 0)
        for _ in 0..<100 where listener.openConnections > 0 { try await Task.sleep(for: .milliseconds(20)) }
        #expect(listener.openConnections == 0)
    }

    @Test func idleConnectionsAreClosedOnceTheRedirectCame() async throws {
        let listener = try await LoopbackRedirectListener.bind(connectionTimeout: .seconds(60))
        let port = try #require(listener.redirectURI.port)
        let wait = Self.wait(listener)
        var idle: [LoopbackClient] = []
        for _ in 0..<5 { idle.append(try await LoopbackClient(port: port)) }
        let right = try await LoopbackClient.get(port: port, "/callback?code=c&state=s-1", host: "127.0.0.1:\(port)")
        #expect(right.hasPrefix("HTTP/1.1 200"))
        _ = try await wait.value
        #expect(await LoopbackClient.countOpen(idle, within: .seconds(30)) == 0)
        // And the listener stops listening.
        var refused = false
        for _ in 0..<100 where !refused {
            refused = (try? await LoopbackClient(port: port)) == nil
            if !refused { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(refused)
    }

    @Test func aConnectionWithoutARequestIsClosedAfterTheTimeoutAndTheWaitGoesOn() async throws {
        let listener = try await LoopbackRedirectListener.bind(connectionTimeout: .milliseconds(300))
        let port = try #require(listener.redirectURI.port)
        let wait = Self.wait(listener)
        var idle: [LoopbackClient] = []
        for _ in 0..<5 { idle.append(try await LoopbackClient(port: port)) }
        let partial = try await LoopbackClient(port: port)
        await partial.send("GET /callback?code=c&state=s-1 HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n")  // no blank line
        #expect(await LoopbackClient.countOpen(idle + [partial], within: .seconds(30)) == 0)
        let right = try await LoopbackClient.get(port: port, "/callback?code=c&state=s-1", host: "127.0.0.1:\(port)")
        #expect(right.hasPrefix("HTTP/1.1 200"))
        _ = try await wait.value
    }

    @Test func connectionsOverTheLimitAreClosedAtOnce() async throws {
        let listener = try await LoopbackRedirectListener.bind(maxConnections: 4, connectionTimeout: .seconds(60))
        let port = try #require(listener.redirectURI.port)
        let wait = Self.wait(listener)
        try await Self.accepting(port)
        let admitted = try await Self.connect(4, to: listener, port: port)
        #expect(listener.openConnections == 4)
        let extra = try await Self.connect(3, to: listener, port: port)
        #expect(await LoopbackClient.countOpen(extra, within: .seconds(30)) == 0)
        #expect(await LoopbackClient.countOpen(admitted, within: .milliseconds(300)) == 4)
        #expect(listener.openConnections == 4)
        // An admitted connection still brings the redirect.
        let right = await admitted[0].get("/callback?code=c&state=s-1", host: "127.0.0.1:\(port)")
        #expect(right.hasPrefix("HTTP/1.1 200"))
        _ = try await wait.value
        #expect(await LoopbackClient.countOpen(admitted, within: .seconds(30)) == 0)
        for _ in 0..<100 where listener.openConnections > 0 { try await Task.sleep(for: .milliseconds(20)) }
        #expect(listener.openConnections == 0)
    }

    @Test func theListenerTakesOnlyItsOwnAuthorizationAndWaitsOnce() async throws {
        let listener = try await LoopbackRedirectListener.bind(path: "done")
        #expect(listener.redirectURI.path == "/done")
        let elsewhere = PendingAuthorization(
            url: URL(string: "https://id.example/authorize")!, state: Self.state, nonce: nil, pkce: PKCE(),
            redirectURI: URL(string: "http://127.0.0.1:1/done")!, issuer: URL(string: "https://id.example")!
        )
        await #expect { try await listener.waitForRedirect(of: elsewhere) } throws: { ($0 as? AuthError)?.code == .invalidRequest }
        await #expect { try await listener.waitForRedirect(of: Self.pending(for: listener), timeout: .milliseconds(200)) } throws: {
            ($0 as? AuthError)?.code == .timeout
        }
        await #expect { try await listener.waitForRedirect(of: Self.pending(for: listener)) } throws: { ($0 as? AuthError)?.code == .invalidRequest }
    }
}
