// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

// The request pipeline of AuthCore: what the five standard middlewares add to a request, and how
// long a renewal storm (1,000 requests racing on one expired token) takes.
//
// Each subject is measured next to its baseline in the same run, and also paired with it in the
// same iteration (see BenchmarkSupport/Paired.swift):
// - "pipeline request" vs "noop transport send": overhead per request = subject − baseline;
//   target ≤ 2 µs.
// - "renewal storm x1000" vs "noop sends x1000 (task group)": target ≤ 2 × (refresher delay +
//   baseline); the paired ratio is storm ÷ that target.
// - "renewal storm x10000" and "x100000": the same storm with 10,000 and 100,000 requests (fewer
//   iterations), each paired with as many no-op sends; with every storm, "CPU per request" is the
//   process CPU time of the storm divided by its number of requests, and peak resident memory.
import AuthCore
import Benchmark
import BenchmarkSupport
import Foundation
import HTTPTypes
import Logging

/// The refresher's fixed latency in the renewal storm.
let refresherDelay: Duration = .milliseconds(10)
/// Concurrent requests per storm.
let stormSize = 1_000

/// Process CPU time of a storm divided by its number of requests, in nanoseconds (not scaled).
let cpuPerRequest = BenchmarkMetric.custom("CPU per request, process (ns)", useScalingFactor: false)

let noop = ClosureTransport { _ in AuthResponse(status: .ok) }
let account = AccountKey(namespace: "bench", account: "alice")

/// A logger at `.info` whose handler drops everything, so the logging middleware takes its fast path.
func quietLogger() -> Logger {
    var logger = Logger(label: "bench") { _ in SwiftLogNoOpLogHandler() }
    logger.logLevel = .info
    return logger
}

/// A pipeline with the five standard middlewares around a session signed in with `tokens`.
func makeClient(signedInWith tokens: BearerTokenSet) async throws -> AuthClient {
    let strategy = BearerStrategy(allowedHosts: AllowedHosts(["api.example.com"])) { old in
        try await Task.sleep(for: refresherDelay)
        return BearerTokenSet(
            accessToken: "renewed-access-token", refreshToken: old.refreshToken?.reveal,
            expiresAt: Date().addingTimeInterval(3 * 3600))
    }
    let session = AccountSession(
        account: account, strategy: strategy, vault: CredentialVault(store: InMemoryCredentialStore()),
        logger: quietLogger())
    try await session.signIn(tokens)
    return AuthClient(transport: noop, middlewares: [
        RedirectMiddleware(),
        RetryMiddleware(),
        HeadersMiddleware([.userAgent: "bench"]),
        AuthenticationMiddleware(session: session),
        LoggingMiddleware(logger: quietLogger()),
    ])
}

func makeRequest() throws -> AuthRequest {
    try AuthRequest(method: .get, url: BenchmarkSupport.url("https://api.example.com/v1/me?fields=name,email"))
}

let benchmarks: @Sendable () -> Void = {
    let perRequest = Benchmark.Configuration.suite(.nanoseconds, scaling: .kilo, warmup: 5, maxDuration: .seconds(3), maxIterations: 2_000)

    Benchmark("noop transport send (baseline)", configuration: perRequest) { benchmark in
        let request = try makeRequest()
        try await CPUTime.measure(benchmark) {
            for _ in benchmark.scaledIterations {
                blackHole(try await noop.send(request))
            }
        }
    }

    var perRequestPaired = perRequest
    perRequestPaired.metrics = Paired.metrics

    Benchmark("pipeline request, valid token", configuration: perRequestPaired) { benchmark, client in
        let request = try makeRequest()
        try await Paired.measure(benchmark) {
            for _ in benchmark.scaledIterations {
                blackHole(try await noop.send(request))
            }
        } subject: {
            for _ in benchmark.scaledIterations {
                blackHole(try await client.send(request))
            }
        }
    } setup: {
        try await makeClient(signedInWith: BearerTokenSet(
            accessToken: "valid-access-token", refreshToken: "refresh-token",
            expiresAt: Date().addingTimeInterval(6 * 3600)))
    }

    let perStorm = Benchmark.Configuration.suite(.microseconds, scaling: .one, warmup: 3, maxDuration: .seconds(4), maxIterations: 150)

    Benchmark("noop sends x1000, task group (baseline)", configuration: perStorm) { benchmark in
        let request = try makeRequest()
        var ok = 0
        try await CPUTime.measure(benchmark) {
            ok = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<stormSize {
                    group.addTask { try await noop.send(request).status.code }
                }
                return try await group.reduce(0) { $0 + ($1 == 200 ? 1 : 0) }
            }
        }
        guard ok == stormSize else { throw BenchmarkSetupError("only \(ok) of \(stormSize) sends succeeded") }
    }

    Benchmark("noop sends x1000 after a shared 10 ms wait (diagnostic)", configuration: perStorm) { benchmark in
        // The storm's shape without AuthKit: 1,000 children of one task group all wait for one
        // task that sleeps for the refresher delay, then send through the bare transport. What
        // this costs beyond the delay is the runtime's share of the storm (task creation,
        // suspension and resumption, task-group bookkeeping).
        let request = try makeRequest()
        var ok = 0
        try await CPUTime.measure(benchmark) {
            let shared = Task { try await Task.sleep(for: refresherDelay) }
            ok = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<stormSize {
                    group.addTask {
                        try await shared.value
                        return try await noop.send(request).status.code
                    }
                }
                return try await group.reduce(0) { $0 + ($1 == 200 ? 1 : 0) }
            }
        }
        guard ok == stormSize else { throw BenchmarkSetupError("only \(ok) of \(stormSize) sends succeeded") }
    }

    var perStormPaired = perStorm
    perStormPaired.metrics = Paired.metrics + [cpuPerRequest, .peakMemoryResident]
    renewalStorm(stormSize, configuration: perStormPaired)

    // Larger storms: fewer iterations, bounded in time.
    var perLargeStorm = Benchmark.Configuration.suite(.microseconds, scaling: .one, warmup: 1, maxDuration: .seconds(20), maxIterations: 20)
    perLargeStorm.metrics = perStormPaired.metrics
    renewalStorm(10_000, configuration: perLargeStorm)
    var perHugeStorm = Benchmark.Configuration.suite(.microseconds, scaling: .one, warmup: 1, maxDuration: .seconds(30), maxIterations: 8)
    perHugeStorm.metrics = perStormPaired.metrics
    renewalStorm(100_000, configuration: perHugeStorm)
}

/// "renewal storm x<size>, expired token": `size` concurrent requests racing on one expired
/// token, paired with `size` no-op sends in a task group; records the storm's process CPU time
/// per request too.
func renewalStorm(_ size: Int, configuration: Benchmark.Configuration) {
    Benchmark("renewal storm x\(size), expired token", configuration: configuration) { benchmark in
        // A fresh session per storm: its token expired a minute ago, so the first request renews
        // and the others wait for that one renewal.
        let client = try await makeClient(signedInWith: BearerTokenSet(
            accessToken: "expired-access-token", refreshToken: "refresh-token",
            expiresAt: Date().addingTimeInterval(-60)))
        let request = try makeRequest()
        var ok = 0
        var cpu = 0
        // The paired baseline is `size` no-op sends in a task group; the paired ratio is the storm
        // over its target, 2 × (refresher delay + baseline): ≤ 1000 meets the target.
        try await Paired.measure(benchmark, baseline: {
            _ = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<size {
                    group.addTask { try await noop.send(request).status.code }
                }
                return try await group.reduce(0) { $0 + ($1 == 200 ? 1 : 0) }
            }
        }, subject: {
            let start = CPUTime.now()
            ok = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<size {
                    group.addTask { try await client.send(request).status.code }
                }
                return try await group.reduce(0) { $0 + ($1 == 200 ? 1 : 0) }
            }
            cpu = CPUTime.now() - start
        }, denominator: { baseline in 2 * (Int(refresherDelay.components.seconds) * 1_000_000_000
            + Int(refresherDelay.components.attoseconds / 1_000_000_000) + baseline) })
        benchmark.measurement(cpuPerRequest, cpu / size)
        guard ok == size else { throw BenchmarkSetupError("only \(ok) of \(size) requests succeeded") }
    }
}
