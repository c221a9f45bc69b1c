// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

// AuthTelemetry's cost per request (issue 22): the standard pipeline over a transport that answers
// at once, with RequestTelemetryMiddleware outermost (a timer per outcome, a span per request)
// against the same pipeline without it, paired in the same iteration. Metrics go to a minimal
// in-process backend (atomic counters, as a Prometheus-style client keeps), spans to the no-op
// tracer a service has before it bootstraps one.
import AuthCore
import AuthTelemetry
import Benchmark
import BenchmarkSupport
import CoreMetrics
import Foundation
import Synchronization
import Tracing

let account = AccountKey(namespace: "bench", account: "alice")
let noop = ClosureTransport { _ in AuthResponse(status: .ok) }

/// A backend that keeps a sum and a count per timer, and a total per counter.
final class AtomicMetrics: MetricsFactory {
    final class Handler: CounterHandler, TimerHandler, RecorderHandler, MeterHandler, FloatingPointCounterHandler {
        let total = Atomic<Int64>(0)
        let count = Atomic<Int64>(0)
        func increment(by amount: Int64) { total.add(amount, ordering: .relaxed) }
        func increment(by amount: Double) { total.add(Int64(amount), ordering: .relaxed) }
        func reset() { total.store(0, ordering: .relaxed) }
        func recordNanoseconds(_ duration: Int64) {
            total.add(duration, ordering: .relaxed)
            count.add(1, ordering: .relaxed)
        }
        func record(_ value: Int64) { recordNanoseconds(value) }
        func record(_ value: Double) { recordNanoseconds(Int64(value)) }
        func set(_ value: Int64) { total.store(value, ordering: .relaxed) }
        func set(_ value: Double) { total.store(Int64(value), ordering: .relaxed) }
        func decrement(by amount: Double) { total.add(-Int64(amount), ordering: .relaxed) }
    }
    func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler { Handler() }
    func makeFloatingPointCounter(label: String, dimensions: [(String, String)]) -> any FloatingPointCounterHandler { Handler() }
    func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler { Handler() }
    func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler { Handler() }
    func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler { Handler() }
    func destroyCounter(_ handler: any CounterHandler) {}
    func destroyFloatingPointCounter(_ handler: any FloatingPointCounterHandler) {}
    func destroyRecorder(_ handler: any RecorderHandler) {}
    func destroyMeter(_ handler: any MeterHandler) {}
    func destroyTimer(_ handler: any TimerHandler) {}
}

/// The standard pipeline around a signed-in session, with the telemetry middleware outermost or not.
func makeClient(telemetry: AuthTelemetry?) async throws -> AuthClient {
    let strategy = BearerStrategy(allowedHosts: AllowedHosts(["api.example.com"])) { $0 }
    let session = AccountSession(account: account, strategy: strategy, vault: CredentialVault(store: InMemoryCredentialStore()))
    try await session.signIn(BearerTokenSet(accessToken: "access-token", refreshToken: "refresh", expiresAt: Date().addingTimeInterval(3 * 3600)))
    let telemetryMiddleware: [any Middleware] = telemetry.map { [RequestTelemetryMiddleware(telemetry: $0, account: account)] } ?? []
    return AuthClient(transport: noop, middlewares: telemetryMiddleware + [
        RedirectMiddleware(),
        RetryMiddleware(),
        HeadersMiddleware([.userAgent: "bench"]),
        AuthenticationMiddleware(session: session),
    ])
}

let benchmarks: @Sendable () -> Void = {
    var paired = Benchmark.Configuration.suite(.nanoseconds, scaling: .kilo, warmup: 5, maxDuration: .seconds(3), maxIterations: 2_000)
    paired.metrics = Paired.metrics

    Benchmark("pipeline request with AuthTelemetry (timer + no-op span) vs without", configuration: paired) { (benchmark: Benchmark, clients: (AuthClient, AuthClient)) in
        let (plain, measured) = clients
        let request = try AuthRequest(method: .get, url: BenchmarkSupport.url("https://api.example.com/v1/me?fields=name,email"))
        try await Paired.measure(benchmark) {
            for _ in benchmark.scaledIterations { blackHole(try await plain.send(request)) }
        } subject: {
            for _ in benchmark.scaledIterations { blackHole(try await measured.send(request)) }
        }
    } setup: {
        let telemetry = AuthTelemetry(metrics: AtomicMetrics(), tracer: NoOpTracer())
        return (try await makeClient(telemetry: nil), try await makeClient(telemetry: telemetry))
    }
}
