// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
public import CoreMetrics
public import Tracing

extension AuthContainer {
    /// Reports the clients this container makes from now on to swift-metrics and
    /// swift-distributed-tracing (see ``AuthTelemetry``): a ``RequestTelemetryMiddleware`` in the
    /// `observation` phase of each (``/AuthCore/MiddlewarePhase``: outside redirects, retries and
    /// caching; after the observation middlewares added before it), and the container's events
    /// counted. Each call adds one more. Wrap refreshers in
    /// ``TelemetryTokenRefresher`` to time and trace renewals too.
    ///
    /// ```swift
    /// let telemetry = container.useTelemetry()
    /// ```
    /// - Parameters:
    ///   - metrics: Where metrics go; nil: the bootstrapped `MetricsSystem`, read when used.
    ///   - tracer: Where spans go; nil: the bootstrapped `InstrumentationSystem`, read when used.
    ///   - includesAccount: Whether the account id is a label too.
    /// - Returns: The telemetry (its ``AuthTelemetry/stop()`` ends the event counting; the
    ///   container's clients keep it alive).
    @discardableResult
    public func useTelemetry(metrics: (any MetricsFactory)? = nil, tracer: (any Tracer)? = nil, includesAccount: Bool = false) -> AuthTelemetry {
        let telemetry = AuthTelemetry(metrics: metrics, tracer: tracer, includesAccount: includesAccount)
        telemetry.observe(self[AuthEventsKey.self])
        addMiddleware(.observation) { context in RequestTelemetryMiddleware(telemetry: telemetry, account: context.account) }
        return telemetry
    }
}
