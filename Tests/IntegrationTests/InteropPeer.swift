// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCookie
import AuthCore
import AuthHTTPClient
import AuthOAuth2
import AuthTesting
import Foundation
import HTTPTypes
import Testing

/// One of the independent Python servers in `Interop/`, started for one test on 127.0.0.1.
///
/// The peers run in the virtual environment that `scripts/interop-peers` prepares at
/// `.build-interop/venv`. A peer prints `PORT <n>` as its first line;
/// ``run(_:accessSeconds:renewedAccessSeconds:_:)`` reads it, runs the test body, and stops the
/// server afterwards, also when the body throws. The server's standard input is a pipe this
/// process holds, so the server exits by itself if the test process dies first.
///
/// ```swift
/// @Test(.enabled(if: InteropPeer.shouldRun, InteropPeer.disabledNote))
/// func example() async throws {
///     try await InteropPeer.run("flask_jwt_server.py") { peer in … peer.url("api/me") … }
/// }
/// ```
struct InteropPeer: Sendable {
    /// `http://127.0.0.1:<port>/`.
    let base: URL
    private let process: PeerProcess

    /// The URL of `path` on this peer.
    func url(_ path: String) -> URL { base.appending(path: path) }

    /// The peer's `GET /_counters`.
    func counters(_ transport: any Transport) async throws -> PeerCounters {
        let response = try await transport.send(AuthRequest(method: .get, url: url("_counters")))
        return try JSONDecoder().decode(PeerCounters.self, from: response.body)
    }

    /// Starts `Interop/<script>`, runs `body` with it, and stops it.
    /// - Parameters:
    ///   - accessSeconds: The lifetime of the access tokens of a sign-in.
    ///   - renewedAccessSeconds: The lifetime of renewed ones. A burst across one expiry then
    ///     crosses exactly one, however slowly a busy machine serves it.
    /// - Throws: ``InteropPeerError`` when the environment is missing (so a test that runs
    ///   without it fails, as on CI) or the server did not start; whatever `body` throws.
    ///
    /// At most ``concurrentPeers`` peers run at once in the test process: each is a Python
    /// interpreter and a server, and twenty of them starting together with every other suite
    /// took the two cores from the tests that measure time.
    static func run<T>(_ script: String, accessSeconds: Int = 2, renewedAccessSeconds: Int = 30, arguments extra: [String] = [], _ body: (InteropPeer) async throws -> T) async throws -> T {
        await running.acquire()
        defer { Task { await running.release() } }
        let lifetimes = ["--access-seconds", String(accessSeconds), "--renewed-access-seconds", String(renewedAccessSeconds)]
        let peer = try await start(script, arguments: ["--port", "0"] + lifetimes + extra)
        do {
            let result = try await body(peer)
            await peer.process.stop()
            return result
        } catch {
            await peer.process.stop()
            throw error
        }
    }

    private static func start(_ script: String, arguments: [String]) async throws -> InteropPeer {
        guard isInstalled else { throw InteropPeerError("no Python environment at \(python.path): run scripts/interop-peers") }
        let process = try PeerProcess(python, arguments: [root.appending(path: "Interop/\(script)").path] + arguments)
        let line = await process.firstLine(timeout: .seconds(60))
        guard let line, line.hasPrefix("PORT "), let port = Int(line.dropFirst(5)), port > 0 else {
            await process.stop()
            throw InteropPeerError("\(script) did not print `PORT <n>` (it printed \(line.map { "\"\($0)\"" } ?? "nothing")); see its standard error above")
        }
        return InteropPeer(base: URL(string: "http://127.0.0.1:\(port)/")!, process: process)
    }
}

extension InteropPeer {
    /// How many peers run at once.
    static let concurrentPeers = 3
    /// The permits of ``run(_:accessSeconds:renewedAccessSeconds:arguments:_:)``.
    static let running = Permits(concurrentPeers)

    /// A counting semaphore for tasks: `acquire` waits (in order) while none is free.
    actor Permits {
        private var free: Int
        private var waiting: [CheckedContinuation<Void, Never>] = []

        init(_ count: Int) { free = count }

        func acquire() async {
            if free > 0 {
                free -= 1
                return
            }
            await withCheckedContinuation { waiting.append($0) }
        }

        func release() {
            if waiting.isEmpty {
                free += 1
            } else {
                waiting.removeFirst().resume()
            }
        }
    }

    /// The package root: the first folder above this file that holds `Package.swift`.
    static let root: URL = {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while folder.path != "/", !FileManager.default.fileExists(atPath: folder.appending(path: "Package.swift").path) {
            folder.deleteLastPathComponent()
        }
        return folder
    }()

    /// The virtual environment's interpreter.
    static let python = root.appending(path: ".build-interop/venv/bin/python")

    /// Whether `scripts/interop-peers` has prepared the environment.
    static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: python.path) }

    /// The tests' trait condition: they run when the environment is there, and always on CI
    /// (`CI` set), where a missing environment makes them fail instead of being skipped.
    static var shouldRun: Bool { isInstalled || ProcessInfo.processInfo.environment["CI"] != nil }

    /// Why the tests are disabled when they are.
    static let disabledNote: Comment = "needs the Python peers: run scripts/interop-peers (scripts/test does)"
}

/// A peer's `GET /_counters`: named counts and requests per path.
struct PeerCounters: Decodable {
    let counts: [String: Int]
    let requests: [String: Int]

    /// The count `name`; 0 when never counted.
    subscript(_ name: String) -> Int { counts[name] ?? 0 }

    /// Requests that reached `path`.
    func requests(path: String) -> Int { requests[path] ?? 0 }
}

/// A peer that could not be used.
struct InteropPeerError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The server process: its first line of output, and stopping it.
///
/// `@unchecked Sendable`: `Process` is not `Sendable`; after `run()` this class only calls
/// `terminate()` and reads `isRunning`, which Foundation allows from any thread, and the pipe's
/// write end is closed once, under the lock.
private final class PeerProcess: @unchecked Sendable {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let exited: AsyncStream<Void>
    private let lock = NSLock()
    private var stopped = false

    init(_ executable: URL, arguments: [String]) throws {
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["PYTHONDONTWRITEBYTECODE": "1"]) { $1 }
        process.standardInput = input
        process.standardOutput = output
        let (exited, continuation) = AsyncStream<Void>.makeStream()
        process.terminationHandler = { _ in continuation.finish() }
        self.exited = exited
        try process.run()
    }

    /// The first line the server prints, read on a thread of its own; nil when the output ended
    /// first or nothing came within `timeout` (the server is stopped then).
    func firstLine(timeout: Duration) async -> String? {
        let reader = output.fileHandleForReading
        let watchdog = DispatchWorkItem { [self] in terminate() }
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(Int(timeout.components.seconds * 1000)), execute: watchdog)
        defer { watchdog.cancel() }
        return await offPool {
            var pending = Data()
            while !pending.contains(UInt8(ascii: "\n")) {
                let chunk = reader.availableData
                if chunk.isEmpty { return nil }
                pending += chunk
            }
            return String(decoding: pending.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
        }
    }

    /// Closes the server's input and sends SIGTERM; returns once it has exited.
    func stop() async {
        terminate()
        for await _ in exited {}
    }

    private func terminate() {
        lock.withLock {
            guard !stopped else { return }
            stopped = true
            try? input.fileHandleForWriting.close()
            if process.isRunning { process.terminate() }
        }
    }
}

extension InteropPeer {
    /// A client of `username` whose bearer tokens are renewed at the peer's `/oauth/token`
    /// (RFC 6749 §6, public client `interop-tests`); `renewalTook` is told how long each renewal's
    /// exchange with the token endpoint took.
    func bearerClient(_ username: String, transport: HTTPClientTransport, policy: RenewalPolicy, renewalTook: (@Sendable (Duration) -> Void)? = nil) -> AccountClient<BearerStrategy> {
        let container = AuthContainer()
        container.useHTTPClient(transport)
        container.override(RenewalPolicyKey.self, with: policy)
        let endpoint = OAuth2RefreshTokenRefresher(tokenEndpoint: url("oauth/token"), clientID: "interop-tests", transport: transport)
        let refresher = ClosureTokenRefresher { tokens in
            let started = ContinuousClock.now
            defer { renewalTook?(ContinuousClock.now - started) }
            return try await endpoint.refresh(tokens)
        }
        let strategy = BearerStrategy(allowedHosts: AllowedHosts(origin: base), refresher: refresher)
        return container.makeClient(for: AccountKey(namespace: "interop", account: username), strategy: strategy)
    }
}

extension InteropPeer {
    /// A container on `transport` with cookies (``/AuthCookie/AuthContainer/useCookies(configuration:)``) over `store`.
    static func cookieContainer(_ transport: HTTPClientTransport, store: any CredentialStore = InMemoryCredentialStore()) -> AuthContainer {
        let container = AuthContainer()
        container.useHTTPClient(transport)
        container.override(CredentialStoreKey.self, with: store)
        container.useCookies()
        return container
    }
}

extension RenewalPolicy {
    /// The tests' 2 s access tokens stand for real ones of minutes, so the renewal leeway
    /// (30 s by default) shrinks with them: none, tokens are used until they expire.
    static let scaledToShortTokens = RenewalPolicy(leeway: .zero)
}

extension InteropPeer {
    /// Signs `client` in with `firstTokens` and sends one `GET /api/me`, until that request
    /// needed no renewal (at most 5 sign-ins): the burst after it must cross the expiry of a
    /// first, short token. On a loaded machine the sign-in and the first request can outlast
    /// that token; its renewal is then right, but the renewed token lives 30 s
    /// (``run(_:accessSeconds:renewedAccessSeconds:arguments:_:)``), and a burst 2.5 s later
    /// would cross no expiry at all.
    /// - Parameter renewals: The peer's counter of refresh grants.
    /// - Returns: The counter after the last sign-in, and how many sign-ins it took.
    func signInWithAFreshToken<S: AuthStrategy>(
        _ client: AccountClient<S>, transport: any Transport, renewals: String,
        firstTokens: () async throws -> S.Value
    ) async throws -> (renewed: Int, signIns: Int) {
        var signIns = 0
        while true {
            signIns += 1
            let before = try await counters(transport)[renewals]
            let signingIn = ContinuousClock.now
            try await client.signIn(try await firstTokens())
            #expect(try await client.send(.get, url("api/me")).status == .ok)
            let after = try await counters(transport)[renewals]
            if after == before { return (after, signIns) }
            // A fresh token is not renewed: a renewal is due only when the sign-in and the
            // request outlasted the token's first second (a loaded machine).
            #expect(ContinuousClock.now - signingIn >= .seconds(1), "a token renewed within a second of its sign-in")
            if signIns == 5 {
                Issue.record("each of 5 sign-ins needed a renewal at its first request: the burst would cross no expiry")
                return (after, signIns)
            }
        }
    }

    /// Waits past the 2 s access-token lifetime, then sends 100 concurrent `GET /api/me` as
    /// `client`: each answer's status and user name.
    func burstAcrossExpiry<S: AuthStrategy>(_ client: AccountClient<S>) async throws -> [(status: Int, username: String?)] {
        try await Task.sleep(for: .milliseconds(2500))
        return try await concurrently(100) { _ in
            let response = try await client.send(.get, url("api/me"))
            return (response.status.code, try? JSONDecoder().decode(PeerProfile.self, from: response.body).username)
        }
    }
}

/// Runs `operation` `count` times at once and returns the results in completion order.
func concurrently<T: Sendable>(_ count: Int, _ operation: @escaping @Sendable (Int) async throws -> T) async throws -> [T] {
    try await withThrowingTaskGroup(of: T.self) { group in
        for index in 0..<count { group.addTask { try await operation(index) } }
        return try await group.reduce(into: [T]()) { $0.append($1) }
    }
}

/// The peers' `GET /api/me` answer.
struct PeerProfile: Decodable, Equatable {
    let username: String
}
