// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
public import CoreMetrics
public import Tracing
import Synchronization

/// AuthKit's metrics (swift-metrics) and spans (swift-distributed-tracing): what a service's
/// dashboards need to see renewals, failures and latency.
///
/// Labels are bounded: a metric's dimensions are the account's namespace and an outcome, never an
/// account id (unless ``includesAccount`` is set) and never a secret; a span's attributes the
/// method, the server's host, the status, the namespace, the cache outcome and an error's code.
///
/// Metrics (counters unless said otherwise):
/// - `authkit_requests` (timer, seconds): each request through the client, with `outcome`
///   `2xx`…`5xx` or the `AuthError` code;
/// - `authkit_renewals` with `outcome` `renewed` or `failed`, and `authkit_renewal_duration`
///   (timer) when the refresher is wrapped in ``TelemetryTokenRefresher``;
/// - `authkit_cache_lookups` with `outcome` `hit`, `miss`, `revalidated` or `stale`: requests
///   a response cache answered (AuthCache's sets `AuthResponse.cacheOutcome`);
/// - `authkit_reauthentication_required`, `authkit_rate_limited`, `authkit_store_unavailable`,
///   `authkit_credentials_withheld`, `authkit_revocation_failed`.
///
/// Spans: `authkit.request` (internal) around each request, `authkit.renewal` around each renewal
/// through a ``TelemetryTokenRefresher`` (a child of the request that started it).
///
/// ```swift
/// let telemetry = container.useTelemetry()   // the bootstrapped MetricsSystem and InstrumentationSystem
/// ```
public final class AuthTelemetry: Sendable {
    private let metricsFactory: (any MetricsFactory)?
    private let spanTracer: (any Tracer)?
    /// Where metrics go: the factory given, or `MetricsSystem.factory` as it is when a metric is
    /// made (so telemetry set up before the service bootstraps its backend still reaches it).
    public var metrics: any MetricsFactory { metricsFactory ?? MetricsSystem.factory }
    /// Where spans go: the tracer given, or `InstrumentationSystem.tracer` as it is at each span.
    public var tracer: any Tracer { spanTracer ?? InstrumentationSystem.tracer }
    /// Whether the account id is a dimension and an attribute too (its cardinality is the
    /// number of accounts: opt in only when that is small).
    public let includesAccount: Bool
    private let observer = Mutex<Task<Void, Never>?>(nil)

    /// Telemetry to `metrics` and `tracer` (nil: the bootstrapped global ones, read when used).
    public init(metrics: (any MetricsFactory)? = nil, tracer: (any Tracer)? = nil, includesAccount: Bool = false) {
        self.metricsFactory = metrics
        self.spanTracer = tracer
        self.includesAccount = includesAccount
    }

    deinit {
        observer.withLock { $0?.cancel() }
    }

    /// Counts what `events` reports (renewals, failures, rate limiting, store faults) until
    /// ``stop()`` or the telemetry is released, in place of any broadcaster observed before. The
    /// broadcaster keeps the newest events for a slow observer: under a burst of thousands,
    /// counters may miss some.
    public func observe(_ events: AuthEvents) {
        let stream = events.stream()
        let task = Task { [weak self] in
            for await event in stream {
                guard let self else { return }
                self.count(event)
            }
        }
        observer.withLock { previous in
            previous?.cancel()
            previous = task
        }
    }

    /// Stops counting events.
    public func stop() {
        observer.withLock { $0?.cancel() }
    }

    /// The dimensions of `account` with `extra` after them.
    func dimensions(_ account: AccountKey?, _ extra: [(String, String)] = []) -> [(String, String)] {
        var dimensions = [("namespace", account?.namespace ?? "-")]
        if includesAccount, let account { dimensions.append(("account", account.account)) }
        return dimensions + extra
    }

    /// Puts the account's attributes on `span` (the account id only with ``includesAccount``).
    func annotate(_ span: any Span, account: AccountKey?) {
        span.attributes["authkit.namespace"] = account?.namespace ?? "-"
        if includesAccount, let account { span.attributes["authkit.account"] = account.account }
    }

    /// Marks `span` failed with `error`'s code only (never its text, which a backend would show)
    /// and returns that code, the metrics' outcome.
    func fail(_ span: any Span, with error: any Error) -> String {
        let code = (error as? AuthError)?.code.description ?? "\(type(of: error))"
        span.attributes["error.type"] = code
        span.setStatus(SpanStatus(code: .error))
        return code
    }

    private func count(_ event: AuthEvent) {
        let (label, extra): (String, [(String, String)])
        switch event {
        case .renewed: (label, extra) = ("authkit_renewals", [("outcome", "renewed")])
        case .renewalFailed: (label, extra) = ("authkit_renewals", [("outcome", "failed")])
        case .reauthenticationRequired: (label, extra) = ("authkit_reauthentication_required", [])
        case .rateLimited: (label, extra) = ("authkit_rate_limited", [])
        case .storeUnavailable: (label, extra) = ("authkit_store_unavailable", [])
        case .credentialWithheld: (label, extra) = ("authkit_credentials_withheld", [])
        case .revocationFailed: (label, extra) = ("authkit_revocation_failed", [])
        default: return
        }
        Counter(label: label, dimensions: dimensions(event.account, extra), factory: metrics).increment()
    }
}
