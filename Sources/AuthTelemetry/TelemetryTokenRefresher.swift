// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
import CoreMetrics
import Tracing

/// A ``/AuthCore/TokenRefresher`` that times each renewal (`authkit_renewal_duration`, with `outcome`
/// `renewed` or the `AuthError` code) and wraps it in an `authkit.renewal` span, a child of the
/// request that started it.
///
/// ```swift
/// let telemetry = container.useTelemetry()
/// let refresher = OAuth2RefreshTokenRefresher(tokenEndpoint: URL(string: "https://auth.example.com/token")!, clientID: "app", transport: transport)
/// let strategy = BearerStrategy(allowedHosts: AllowedHosts(["api.example.com"]), refresher: TelemetryTokenRefresher(refresher, telemetry: telemetry, account: alice))
/// ```
public struct TelemetryTokenRefresher: TokenRefresher {
    /// The refresher that renews.
    public let wrapped: any TokenRefresher
    /// Where metrics and spans go.
    public let telemetry: AuthTelemetry
    /// The account renewed (its namespace is the dimension). A refresher knows no account of its
    /// own: wrap one per account, or pass nil for a strategy shared by several (namespace `-`).
    public let account: AccountKey?
    private let timers: OutcomeMetrics<Timer>

    /// Wraps `refresher`.
    public init(_ refresher: any TokenRefresher, telemetry: AuthTelemetry, account: AccountKey?) {
        self.wrapped = refresher
        self.telemetry = telemetry
        self.account = account
        self.timers = OutcomeMetrics(timers: "authkit_renewal_duration", telemetry: telemetry, account: account)
    }

    /// Renews through the wrapped refresher, timed and traced.
    public func refresh(_ tokens: BearerTokenSet) async throws -> BearerTokenSet {
        let started = ContinuousClock.now
        var outcome = "renewed"
        defer { timers.record(ContinuousClock.now - started, outcome: outcome) }
        // The outcome is returned, not thrown: `withSpan` would record the error's whole text.
        let result: Result<BearerTokenSet, any Error> = await telemetry.tracer.withSpan("authkit.renewal", ofKind: .client) { span in
            telemetry.annotate(span, account: account)
            do {
                return .success(try await wrapped.refresh(tokens))
            } catch {
                outcome = telemetry.fail(span, with: error)
                return .failure(error)
            }
        }
        return try result.get()
    }
}
