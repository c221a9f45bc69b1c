// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import Synchronization

/// A real HTTP auth server (Hummingbird) to test clients against, in-process on loopback.
///
/// It binds `127.0.0.1` on a free port, issues real HS256 JWT access tokens and rotating refresh
/// tokens, answers faults on demand and counts what it sees. Several instances can run at once.
///
/// ```swift
/// let clock = ServerClock()
/// try await AuthTestServer.withRunning(configuration: .init(clock: clock)) { server in
///     print(server.baseURL.appendingPathComponent("auth/login"))   // http://127.0.0.1:<port>/auth/login
///     // … register, log in, call /me with an HTTP client …
///     clock.advance(by: 301)                    // access tokens are now expired
///     server.faults.inject(.status(503), path: "/me", times: 2)
///     #expect(server.counters.renewals == 0)
/// }
/// ```
public final class AuthTestServer: Sendable {
    enum Lifecycle {
        case idle
        case starting
        case running(port: Int, group: ServiceGroup, task: Task<Void, any Error>)
    }

    /// The configuration the server was created with.
    public let configuration: Configuration
    /// Users, token families and token issuing.
    public let state: ServerState
    /// Faults queued for the next requests to a path.
    public let faults: FaultInjector
    /// The OAuth 2.0 / OpenID Connect provider's state (`OAuth2ProviderRoutes`): answer a device
    /// authorization, rotate the signing key.
    public let oauth2: OAuth2ProviderState
    private let recorder: CounterRecorder
    let lifecycle = Mutex<Lifecycle>(.idle)

    /// Creates a stopped server; call ``start()`` or use ``withRunning(configuration:isolation:_:)``.
    /// - Parameter configuration: Address, lifetimes, clock, keys, policies and extra routes.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        self.recorder = CounterRecorder()
        self.faults = FaultInjector()
        self.oauth2 = OAuth2ProviderState(deviceInterval: configuration.deviceInterval, quirks: configuration.oauth2Quirks)
        self.state = ServerState(
            clock: configuration.clock,
            signer: configuration.signer,
            lifetimes: configuration.lifetimes,
            counters: recorder
        )
    }

    deinit {
        if case .running(_, _, let task) = lifecycle.withLock({ $0 }) { task.cancel() }
    }

    /// The server clock (the one in the configuration).
    public var clock: ServerClock { configuration.clock }

    /// The bound port, or `nil` when not running.
    public var port: Int? {
        lifecycle.withLock { state in
            if case .running(let port, _, _) = state { return port }
            return nil
        }
    }

    /// `http://<host>:<bound port>`; the port is 0 while the server is not running.
    public var baseURL: URL {
        var components = URLComponents()
        components.scheme = "http"
        components.host = configuration.host
        components.port = port ?? 0
        return components.url ?? URL(fileURLWithPath: "/")
    }

    /// A snapshot of the counters.
    public var counters: ServerCounters { recorder.snapshot }

    /// Sets every counter back to zero.
    public func resetCounters() { recorder.reset() }

    /// Refuses every refresh token of `username` (a server-side revocation).
    /// - Parameter username: The user name.
    /// - Returns: How many token families were affected.
    @discardableResult
    public func revokeRefreshTokens(username: String) async -> Int {
        await state.revokeRefreshTokens(username: username)
    }

    /// The bcrypt hash stored for `username`, for tests that prove no plain password is kept.
    /// - Parameter username: The user name.
    public func storedPasswordHash(username: String) async -> String? {
        await state.user(named: username)?.passwordHash
    }
}
