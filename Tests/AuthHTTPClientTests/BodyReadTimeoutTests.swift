// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AsyncHTTPClient
import AuthCore
@testable import AuthHTTPClient
import Foundation
import HTTPTypes
import NIOCore
import NIOPosix
import Synchronization
import Testing

/// A response's body must bring bytes at least once every `bodyReadTimeout`: a server that
/// stops in the middle of a body ends the request with `.timeout` (AsyncHTTPClient's own read
/// timeout is off in `defaultConfiguration`), a body that comes slowly but steadily arrives whole,
/// and the caller's task stays as it was.
///
/// The servers that stall hold their connection for ten minutes (or until the test closes them),
/// far past every bound here, so that a request ends before only by the bound or a cancellation,
/// however slowly a loaded machine runs the test. The outcome (`.timeout`, a transport error, a
/// response) tells which ending came, and the server tells that it had not sent its whole
/// answer; no test bounds elapsed time from above: a loaded machine held a whole test process for
/// 20 seconds (CI, 2026-12-07).
@Suite struct BodyReadTimeoutTests {
    /// Where the bound is kept: in the HTTP/1 connections of the transport's own client, or with
    /// a child task for each body over an `HTTPClient` the caller owns.
    enum Keeper: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case connections
        case childTasks

        var testDescription: String { rawValue }

        /// Runs `body` with a transport that keeps the bound this way, and shuts it (and its
        /// client) down after; then checks that the bodies read in child tasks were as many as
        /// `childTaskReads` says (`nil`: any number), none when the connections keep the bound.
        @discardableResult
        func withTransport<T>(
            bodyReadTimeout: Duration?,
            configuration: HTTPClient.Configuration = HTTPClientTransport.defaultConfiguration,
            childTaskReads: Int? = nil,
            _ body: (HTTPClientTransport) async throws -> T
        ) async throws -> T {
            let client: HTTPClient?
            let transport: HTTPClientTransport
            switch self {
            case .connections:
                client = nil
                transport = HTTPClientTransport(configuration: configuration, bodyReadTimeout: bodyReadTimeout)
            case .childTasks:
                client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
                transport = HTTPClientTransport(client: client!, bodyReadTimeout: bodyReadTimeout)
            }
            let result: Result<T, any Error>
            do { result = .success(try await body(transport)) } catch { result = .failure(error) }
            try await transport.shutdown()
            try await client?.shutdown()
            let reads = transport.bodyReads?.readsBegun ?? 0
            switch self {
            case .connections: #expect(reads == 0, "bodies read in child tasks")
            case .childTasks: if let childTaskReads { #expect(reads == childTaskReads, "bodies read in child tasks") }
            }
            return try result.get()
        }
    }

    /// Ten bytes of a hundred, then nothing.
    static let stalling = "HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\n0123456789"
    static let stall: [(pause: Duration, bytes: String)] = [(.seconds(600), "")]

    /// `GET /` from `server` through `transport`.
    static func get(_ server: RawHTTPServer, through transport: HTTPClientTransport, method: HTTPRequest.Method = .get) async throws -> AuthResponse {
        try await transport.send(AuthRequest(method: method, url: server.url))
    }

    @Test(arguments: Keeper.allCases)
    func aBodyThatStopsComingEndsWithATimeout(keeper: Keeper) async throws {
        let stalled = try RawHTTPServer(answer: Self.stalling, later: Self.stall)
        let healthy = try RawHTTPServer(answer: "HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok")
        defer { stalled.close(); healthy.close() }
        try await keeper.withTransport(bodyReadTimeout: .milliseconds(300), childTaskReads: 2) { transport in
            #expect(transport.bodyReadTimeout == .milliseconds(300))
            // AsyncHTTPClient's own timer is off: the transport keeps the bound.
            #expect(HTTPClientTransport.defaultConfiguration.timeout.read == nil)
            let start = ContinuousClock.now
            await #expect {
                try await Self.get(stalled, through: transport)
            } throws: { error in
                guard let error = error as? AuthError else { return false }
                return error.code == .timeout && error.message.contains("body") && error.message.contains("0.3 seconds")
            }
            #expect(ContinuousClock.now - start >= .milliseconds(300))
            #expect(stalled.wholeAnswersSent == 0, "the request waited for the server's end")
            // The read was cancelled, not the caller's task: it goes on, and the transport serves it.
            #expect(!Task.isCancelled)
            let next = try await Self.get(healthy, through: transport)
            #expect(next.body == Data("ok".utf8))
        }
    }

    /// Twenty-five parts 400 ms apart, each well within the eight-second bound though the whole
    /// body takes longer than it: the body arrives whole.
    ///
    /// The bytes count as the body is read, so a test process whose tasks cannot run for the
    /// bound looks like a stalled server. A bound of two seconds (parts 100 ms apart) failed on
    /// CI, where the whole suite runs at once on two cores and this test took 12.6 s for 2.5 s
    /// of pauses; eight seconds leave that much room.
    @Test(arguments: Keeper.allCases)
    func aSlowButSteadyBodyArrivesWhole(keeper: Keeper) async throws {
        let parts = (0..<25).map { (pause: Duration.milliseconds(400), bytes: "part\($0);") }
        let body = parts.map(\.bytes).joined()
        let server = try RawHTTPServer(answer: "HTTP/1.1 200 OK\r\ncontent-length: \(body.utf8.count)\r\n\r\n", later: parts)
        defer { server.close() }
        let response = try await keeper.withTransport(bodyReadTimeout: .seconds(8), childTaskReads: 1) { transport in
            try await Self.get(server, through: transport)
        }
        #expect(response.body == Data(body.utf8))
    }

    /// Without a bound (nil), a stalled body waits for the server: here until it closes the
    /// connection, a transport error, not a timeout.
    @Test func withoutABoundAStalledBodyWaitsForTheServer() async throws {
        let server = try RawHTTPServer(answer: Self.stalling, later: [(.milliseconds(800), "")])
        defer { server.close() }
        try await HTTPClientTransport.withTransport(bodyReadTimeout: nil) { transport in
            #expect(transport.bodyReadTimeout == nil)
            let start = ContinuousClock.now
            await #expect {
                try await Self.get(server, through: transport)
            } throws: { ($0 as? AuthError)?.code == .transport }
            #expect(ContinuousClock.now - start >= .milliseconds(700))
        }
    }

    /// Cancelling the caller's task while the body stalls ends the request with
    /// `CancellationError` at once, not at the bound.
    @Test(arguments: Keeper.allCases)
    func cancellingTheTaskWhileTheBodyStallsCancelsTheRequest(keeper: Keeper) async throws {
        let server = try RawHTTPServer(answer: Self.stalling, later: Self.stall)
        defer { server.close() }
        try await keeper.withTransport(bodyReadTimeout: .seconds(30)) { transport in
            let request = Task { try await Self.get(server, through: transport) }
            // Cancelled once the server has answered with its head and first bytes.
            while server.requestHeads.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
            try await Task.sleep(for: .milliseconds(200))
            request.cancel()
            let result = await request.result
            #expect(throws: CancellationError.self) { try result.get() }
            #expect(server.wholeAnswersSent == 0, "the request waited for the server's end")
        }
    }

    /// A body longer than `maxResponseBytes` fails with `.responseTooLarge` naming the limit,
    /// whether it comes in one piece or in several.
    @Test(arguments: [false, true])
    func aBodyOverTheLimitFails(inParts: Bool) async throws {
        let body = String(repeating: "x", count: 64)
        let later = inParts ? (0..<4).map { _ in (pause: Duration.milliseconds(50), bytes: String(repeating: "x", count: 16)) } : []
        let server = try RawHTTPServer(answer: "HTTP/1.1 200 OK\r\ncontent-length: 64\r\n\r\n" + (inParts ? "" : body), later: later)
        defer { server.close() }
        let transport = HTTPClientTransport(maxResponseBytes: 40)
        await #expect {
            try await Self.get(server, through: transport)
        } throws: { error in
            guard let error = error as? AuthError else { return false }
            return error.code == .responseTooLarge && error.message.contains("40 bytes")
        }
        try await transport.shutdown()
    }

    /// A body whose head announces more than `maxResponseBytes` is refused before it is read:
    /// here the server then stalls, and the request fails at once, not at the bound.
    @Test func aBodyAnnouncedOverTheLimitIsRefusedAtOnce() async throws {
        let server = try RawHTTPServer(answer: "HTTP/1.1 200 OK\r\ncontent-length: 64\r\n\r\n", later: Self.stall)
        defer { server.close() }
        let transport = HTTPClientTransport(maxResponseBytes: 40, bodyReadTimeout: .seconds(20))
        // A read of the stalled body would have ended at the bound, as `.timeout`.
        await #expect {
            try await Self.get(server, through: transport)
        } throws: { ($0 as? AuthError)?.code == .responseTooLarge }
        try await transport.shutdown()
    }

    /// A head that announces a body the response does not have (a `HEAD` request's, a
    /// `304 Not Modified`) is neither refused for its length nor waited on, although the server
    /// then holds the connection: the response comes at once, without a body.
    @Test(arguments: [(HTTPRequest.Method.head, 200), (.get, 304)])
    func anAnnouncedBodyThatDoesNotComeIsNotWaitedOn(method: HTTPRequest.Method, status: Int) async throws {
        let server = try RawHTTPServer(answer: "HTTP/1.1 \(status) X\r\ncontent-length: 64\r\n\r\n", later: Self.stall)
        defer { server.close() }
        let transport = HTTPClientTransport(maxResponseBytes: 40, bodyReadTimeout: .seconds(20))
        // Waiting for the body would have ended at the bound, as `.timeout`. The transport is
        // shut down whatever the request gives.
        let result: Result<AuthResponse, any Error>
        do { result = .success(try await Self.get(server, through: transport, method: method)) } catch { result = .failure(error) }
        try await transport.shutdown()
        let response = try result.get()
        #expect(response.status.code == status && response.body.isEmpty)
    }

    /// Over an `HTTPClient` the caller owns, on event loops of its own: a stall ends with
    /// `.timeout`, and after a pause long enough for the sweep to stop, a second stall does too
    /// (the sweep starts again).
    @Test func theBoundHoldsAgainAfterTheSweepStopped() async throws {
        let loops = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let client = HTTPClient(eventLoopGroupProvider: .shared(loops), configuration: HTTPClientTransport.defaultConfiguration)
        let transport = HTTPClientTransport(client: client, bodyReadTimeout: .milliseconds(200))
        let servers = try (0..<2).map { _ in try RawHTTPServer(answer: Self.stalling, later: Self.stall) }
        defer { servers.forEach { $0.close() } }
        for (index, server) in servers.enumerated() {
            if index > 0 { try await Task.sleep(for: .milliseconds(500)) }
            await #expect {
                try await Self.get(server, through: transport)
            } throws: { ($0 as? AuthError)?.code == .timeout }
            #expect(server.wholeAnswersSent == 0, "stall \(index) waited for the server's end")
        }
        try await transport.shutdown()
        try await client.shutdown()
        try await loops.shutdownGracefully()
    }

    /// A configuration's own `http1_1ConnectionDebugInitializer` still runs for each connection,
    /// after the handler that keeps the bound is added: a stalled body ends with `.timeout`.
    @Test func aConfigurationsOwnConnectionInitializerStillRuns() async throws {
        let server = try RawHTTPServer(answer: Self.stalling, later: Self.stall)
        defer { server.close() }
        final class Seen: Sendable { let handlers = Mutex<[Bool]>([]) }
        let seen = Seen()
        var configuration = HTTPClientTransport.defaultConfiguration
        configuration.http1_1ConnectionDebugInitializer = { channel in
            channel.eventLoop.submit {
                let added = (try? channel.pipeline.syncOperations.handler(type: StalledBodyHandler.self)) != nil
                seen.handlers.withLock { $0.append(added) }
            }
        }
        try await Keeper.connections.withTransport(bodyReadTimeout: .milliseconds(300), configuration: configuration) { transport in
            await #expect {
                try await Self.get(server, through: transport)
            } throws: { ($0 as? AuthError)?.code == .timeout }
        }
        // One connection; the bound's handler was in its pipeline when the initializer ran.
        #expect(seen.handlers.withLock { $0 } == [true])
    }

    /// Many requests at once whose bodies stall all end with `.timeout`, each by its own bound,
    /// and requests after them are served.
    @Test(arguments: Keeper.allCases)
    func manyStalledBodiesAtOnceAllTimeOut(keeper: Keeper) async throws {
        let servers = try (0..<8).map { _ in try RawHTTPServer(answer: Self.stalling, later: Self.stall) }
        let healthy = try RawHTTPServer(answer: "HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok")
        defer { servers.forEach { $0.close() }; healthy.close() }
        try await keeper.withTransport(bodyReadTimeout: .milliseconds(200), childTaskReads: 9) { transport in
            let codes = try await withThrowingTaskGroup(of: AuthError.Code?.self) { group in
                for server in servers {
                    group.addTask {
                        do {
                            _ = try await Self.get(server, through: transport)
                            return nil
                        } catch let error as AuthError {
                            return error.code
                        }
                    }
                }
                return try await group.reduce(into: [AuthError.Code?]()) { $0.append($1) }
            }
            #expect(codes == Array(repeating: .timeout, count: 8))
            let next = try await Self.get(healthy, through: transport)
            #expect(next.body == Data("ok".utf8))
        }
    }
}
