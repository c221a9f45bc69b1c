// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AsyncHTTPClient
import AuthTestServer
import AuthTesting
import Foundation
import Testing

@Suite struct LifecycleTests {
    @Test func twoServersRunAtOnceOnDifferentPorts() async throws {
        let first = AuthTestServer()
        let second = AuthTestServer()
        try await first.start()
        try await second.start()
        let firstPort = try #require(first.port)
        let secondPort = try #require(second.port)
        #expect(firstPort != secondPort)
        #expect(first.baseURL.absoluteString == "http://127.0.0.1:\(firstPort)")

        try await withHTTPClient { client in
            for server in [first, second] {
                let echo = try await TestClient(client: client, baseURL: server.baseURL).get("/echo")
                #expect(echo.status == 200)
                #expect(try echo.string("path") == "/echo")
            }
        }
        await first.stop()
        await second.stop()
        #expect(first.port == nil)
    }

    @Test func stoppedServerNoLongerAcceptsConnections() async throws {
        let server = try AuthTestServer(configuration: .init(port: portBelowEphemeralRange()))
        try await server.start()
        let url = server.baseURL
        let before = try await withHTTPClient { try await TestClient(client: $0, baseURL: url).get("/echo") }
        #expect(before.status == 200)

        let port = try #require(server.port)
        try await connectTCP(port: port)

        await server.stop()
        await #expect(throws: (any Error).self) { try await connectTCP(port: port) }
    }

    @Test func withRunningStopsTheServerAfterTheBody() async throws {
        let port = try await AuthTestServer.withRunning(configuration: .init(port: portBelowEphemeralRange())) { server in
            let port = try #require(server.port)
            try await connectTCP(port: port)
            return port
        }
        await #expect(throws: (any Error).self) { try await connectTCP(port: port) }
    }

    @Test func startingTwiceIsATypedError() async throws {
        try await AuthTestServer.withRunning { server in
            do {
                try await server.start()
                Issue.record("second start() succeeded")
            } catch let error as AuthTestServerError {
                #expect(error.code == .alreadyRunning)
            }
        }
    }

    @Test func bindingATakenPortFailsWithStartFailed() async throws {
        try await AuthTestServer.withRunning { running in
            let port = try #require(running.port)
            let clash = AuthTestServer(configuration: .init(port: port))
            do {
                try await clash.start()
                await clash.stop()
                Issue.record("a second server bound port \(port)")
            } catch let error as AuthTestServerError {
                #expect(error.code == .startFailed)
            }
        }
    }

    @Test func aStoppedServerCanStartAgain() async throws {
        let server = AuthTestServer()
        try await server.start()
        await server.stop()
        try await server.start()
        let echo = try await withHTTPClient { try await TestClient(client: $0, baseURL: server.baseURL).get("/echo") }
        #expect(echo.status == 200)
        await server.stop()
    }

    @Test func runUntilCancelledServesUntilItsTaskIsCancelled() async throws {
        let server = AuthTestServer()
        let runner = Task { try await server.runUntilCancelled() }
        var port = server.port
        for _ in 0..<1_000 where port == nil {
            try await Task.sleep(for: .milliseconds(10))
            port = server.port
        }
        let bound = try #require(port)
        try await connectTCP(port: bound)

        runner.cancel()
        try await runner.value
        #expect(server.port == nil)
        await #expect(throws: (any Error).self) { try await connectTCP(port: bound) }
    }
}
