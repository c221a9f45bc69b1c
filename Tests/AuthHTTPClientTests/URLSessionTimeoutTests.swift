// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthURLSession
import Foundation
import Testing

/// `URLSessionTransport` bounds a whole exchange, head and body, by the request's own
/// `options.timeout` or else its ``URLSessionTransport/timeout``. URLSession's own timer measures
/// only time without bytes, and FoundationNetworking counts it in whole seconds (0.3 became 0).
///
/// "Ended at the limit" and "ran to the server's end" are told apart by the outcome (`.timeout`)
/// and by the server, which had not sent its whole body, never by elapsed time, which a loaded
/// machine stretches.
@Suite struct URLSessionTimeoutTests {
    /// A 240-byte body, one byte every half second: never idle for long, done after two minutes
    /// (unless the test closes the server first).
    static func tricklingServer() throws -> RawHTTPServer {
        let bytes = (0..<240).map { _ in (pause: Duration.milliseconds(500), bytes: "x") }
        return try RawHTTPServer(answer: "HTTP/1.1 200 OK\r\ncontent-length: 240\r\n\r\n", later: bytes)
    }

    /// Whether `error` is the transport's timeout, naming `limit`.
    static func isTimeout(_ error: any Error, naming limit: Duration) -> Bool {
        guard let error = error as? AuthError else { return false }
        return error.code == .timeout && error.message.contains("\(limit)")
    }

    @Test func aTricklingBodyEndsAtTheTransportsTimeout() async throws {
        let server = try Self.tricklingServer()
        defer { server.close() }
        let transport = URLSessionTransport(timeout: .seconds(2))
        await #expect {
            try await transport.send(AuthRequest(method: .get, url: server.url))
        } throws: { Self.isTimeout($0, naming: .seconds(2)) }
        #expect(server.wholeAnswersSent == 0, "the request ran to the end of the body")
    }

    /// A request's own limit replaces the transport's: shorter, and sub-second.
    @Test func aTricklingBodyEndsAtTheRequestsOwnTimeout() async throws {
        let server = try Self.tricklingServer()
        defer { server.close() }
        let transport = URLSessionTransport(timeout: .seconds(60))
        let request = try AuthRequest(method: .get, url: server.url, options: RequestOptions(timeout: .milliseconds(1500)))
        await #expect {
            try await transport.send(request)
        } throws: { Self.isTimeout($0, naming: .milliseconds(1500)) }
        #expect(server.wholeAnswersSent == 0, "the request ran to the end of the body")
    }

    /// A request's own, longer limit replaces a transport's shorter (sub-second) one: an answer
    /// that comes after the transport's limit but within the request's arrives.
    @Test func aRequestsLongerTimeoutLetsASlowAnswerArrive() async throws {
        try await EchoServer.withRunning { base in
            let transport = URLSessionTransport(timeout: .milliseconds(300))
            let slow = base.appending(path: "slow").appending(queryItems: [URLQueryItem(name: "ms", value: "1500")])
            let response = try await transport.send(AuthRequest(method: .get, url: slow, options: RequestOptions(timeout: .seconds(30))))
            #expect(response.status == .ok)
            // Without it, the transport's limit holds.
            await #expect {
                try await transport.send(AuthRequest(method: .get, url: base.appending(path: "slow")))
            } throws: { Self.isTimeout($0, naming: .milliseconds(300)) }
        }
    }
}
