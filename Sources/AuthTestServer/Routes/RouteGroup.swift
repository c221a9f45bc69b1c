// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Hummingbird
public import Logging

/// A set of endpoints added to the server's router.
///
/// The built-in groups (auth, guest, me, echo, faults) are route groups; more can be added through
/// ``AuthTestServer/Configuration/routeGroups`` (cookie sessions, MFA, signed endpoints…).
/// Routes added this way also get request counting and fault injection.
///
/// ## Implementing
/// Register routes on `router` in ``addRoutes(to:environment:)``, and keep shared state in
/// ``RouteEnvironment/state`` or in your own actor:
/// ```swift
/// struct PingRoutes: RouteGroup {
///     func addRoutes(to router: Router<BasicRequestContext>, environment: RouteEnvironment) {
///         router.get("/ping") { _, _ in ServerResponse.json(.ok, ["pong": true]) }
///     }
/// }
/// let server = AuthTestServer(configuration: .init(routeGroups: [PingRoutes()]))
/// ```
public protocol RouteGroup: Sendable {
    /// Adds this group's routes.
    /// - Parameters:
    ///   - router: The server's router.
    ///   - environment: Shared state, clock, counters and logger.
    func addRoutes(to router: Router<BasicRequestContext>, environment: RouteEnvironment)
}

/// A route group made from a closure.
///
/// ```swift
/// let group = ClosureRouteGroup { router, environment in
///     router.get("/time") { _, _ in ServerResponse.json(.ok, ["now": environment.clock.now()]) }
/// }
/// ```
public struct ClosureRouteGroup: RouteGroup {
    private let add: @Sendable (Router<BasicRequestContext>, RouteEnvironment) -> Void

    /// Creates a group.
    /// - Parameter add: Registers the routes.
    public init(_ add: @escaping @Sendable (Router<BasicRequestContext>, RouteEnvironment) -> Void) {
        self.add = add
    }

    /// Calls the closure.
    public func addRoutes(to router: Router<BasicRequestContext>, environment: RouteEnvironment) {
        add(router, environment)
    }
}

/// What route groups share: state, clock, faults, counters, policies and the logger.
public struct RouteEnvironment: Sendable {
    /// Users, token families and token issuing.
    public let state: ServerState
    /// Queued faults.
    public let faults: FaultInjector
    /// The server configuration.
    public let configuration: AuthTestServer.Configuration
    /// The server logger (never log a password or token).
    public let logger: Logger

    /// The server clock.
    public var clock: ServerClock { state.clock }
    /// The counters tests read.
    public var counters: CounterRecorder { state.counters }

    /// Creates an environment.
    /// - Parameters:
    ///   - state: Shared state.
    ///   - faults: Fault queue.
    ///   - configuration: Server configuration.
    ///   - logger: Server logger.
    public init(state: ServerState, faults: FaultInjector, configuration: AuthTestServer.Configuration, logger: Logger) {
        self.state = state
        self.faults = faults
        self.configuration = configuration
        self.logger = logger
    }

    /// Checks the request's bearer token.
    /// - Parameter request: The request.
    /// - Returns: The token's claims, or the refusal, whose AuthTestServerError/response is the
    ///   401 to send.
    public func authenticate(_ request: Request) async -> Result<AccessTokenClaims, AuthTestServerError> {
        guard let token = request.bearerToken else {
            return .failure(AuthTestServerError(.missingBearerToken, "a bearer token is required"))
        }
        do throws(AuthTestServerError) {
            return .success(try await state.validateAccessToken(token))
        } catch {
            return .failure(error)
        }
    }
}
