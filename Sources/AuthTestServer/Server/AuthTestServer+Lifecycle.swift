// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import Synchronization

extension AuthTestServer {
    /// Binds the configured address (port 0: any free port) and returns once the server listens.
    /// - Throws: ``AuthTestServerError`` (`alreadyRunning`, `startFailed`).
    public func start() async throws {
        let canStart = lifecycle.withLock { state -> Bool in
            guard case .idle = state else { return false }
            state = .starting
            return true
        }
        guard canStart else {
            throw AuthTestServerError(.alreadyRunning, "start() was called on a server that is already starting or running")
        }
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let service = ClockedHTTPService(
            responder: makeRouter().buildResponder(),
            host: configuration.host,
            port: configuration.port,
            clock: configuration.clock,
            logger: configuration.logger,
            onServerRunning: { port in continuation.yield(port ?? 0) }
        )
        let group = ServiceGroup(
            configuration: .init(services: [service], gracefulShutdownSignals: [], logger: configuration.logger)
        )
        let task = Task {
            defer { continuation.finish() }
            try await group.run()
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else {
            task.cancel()
            let failure: (any Error)?
            do { try await task.value; failure = nil } catch { failure = error }
            lifecycle.withLock { $0 = .idle }
            throw AuthTestServerError(
                .startFailed,
                "could not listen on \(configuration.host):\(configuration.port); is the address free?",
                underlying: failure
            )
        }
        lifecycle.withLock { $0 = .running(port: port, group: group, task: task) }
    }

    /// Shuts the server down gracefully and returns when it no longer listens.
    ///
    /// In-flight requests finish first; if shutdown takes over 10 seconds, the server is cancelled.
    /// Does nothing when the server is not running. The server can be started again afterwards.
    public func stop() async {
        let running = lifecycle.withLock { state -> (ServiceGroup, Task<Void, any Error>)? in
            guard case .running(_, let group, let task) = state else { return nil }
            state = .idle
            return (group, task)
        }
        guard let running else { return }
        let (group, task) = running
        await group.triggerGracefulShutdown()
        let watchdog = Task {
            try await Task.sleep(for: .seconds(10))
            task.cancel()
        }
        _ = await task.result
        watchdog.cancel()
    }

    /// Starts the server and keeps it running until the calling task is cancelled, then stops it
    /// gracefully (for standalone use such as `auth-demo serve`).
    ///
    /// ```swift
    /// let server = AuthTestServer(configuration: .init(port: 8080))
    /// try await server.runUntilCancelled()
    /// ```
    /// - Throws: ``AuthTestServerError`` when the server cannot start.
    public func runUntilCancelled() async throws {
        try await start()
        let task = lifecycle.withLock { state -> Task<Void, any Error>? in
            guard case .running(_, _, let task) = state else { return nil }
            return task
        }
        if let task {
            await withTaskCancellationHandler {
                _ = await task.result
            } onCancel: {
                Task { await self.stop() }
            }
        }
        await stop()
    }

    /// Runs `body` with a started server and stops the server afterwards, also when `body` throws.
    ///
    /// ```swift
    /// let status = try await AuthTestServer.withRunning { server in
    ///     try await fetchStatus(server.baseURL.appendingPathComponent("me"))
    /// }
    /// ```
    /// - Parameters:
    ///   - configuration: The server configuration.
    ///   - isolation: The caller's actor isolation.
    ///   - body: Work to do while the server runs.
    /// - Throws: ``AuthTestServerError`` when the server cannot start, or what `body` throws.
    public static func withRunning<T>(
        configuration: Configuration = Configuration(),
        isolation: isolated (any Actor)? = #isolation,
        _ body: (AuthTestServer) async throws -> T
    ) async throws -> T {
        let server = AuthTestServer(configuration: configuration)
        try await server.start()
        do {
            let result = try await body(server)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }

    /// Builds the router: recording, faults, the built-in route groups (the core's and the plug-in
    /// modules'), then the extra ones.
    func makeRouter() -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        router.add(middleware: RequestRecorderMiddleware(counters: state.counters))
        router.add(middleware: FaultMiddleware(faults: faults))
        let environment = RouteEnvironment(state: state, faults: faults, configuration: configuration, logger: configuration.logger)
        let builtIn: [any RouteGroup] = [AuthRoutes(), GuestRoutes(), MeRoutes(), EchoRoutes(), FaultRoutes(), OAuth2ProviderRoutes(provider: oauth2)] + Self.pluginRouteGroups
        for group in builtIn + configuration.routeGroups {
            group.addRoutes(to: router, environment: environment)
        }
        return router
    }
}
