// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

// The response cache of AuthCache: what a hit costs next to the bare no-op transport, and how
// much memory 1,000,000 distinct URLs leave behind against the byte cap.
//
// - "cache hit" vs "noop transport send (baseline)": a GET answered from a warm entry through a
//   client whose only middleware is the cache, paired in each iteration with the bare
//   transport's send (see BenchmarkSupport/Paired.swift).
// - "1,000,000 distinct URLs": every URL is a miss that stores a 256-byte `max-age` response;
//   the byte cap (16 MiB, the default) makes the cache evict as it goes. Recorded: the bytes
//   the cache counts, the resident memory the process gained (from /proc/self/statm), both
//   against the cap.
import AuthCache
import AuthCore
import Benchmark
import BenchmarkSupport
import Foundation
import HTTPTypes

let account = AccountKey(namespace: "bench", account: "alice")
let body = Data(repeating: UInt8(ascii: "x"), count: 256)

/// A transport that answers every GET with a 256-byte body fresh for an hour.
let origin = ClosureTransport { _ in
    var fields = HTTPFields()
    fields[.cacheControl] = "private, max-age=3600"
    fields[.contentType] = "application/json"
    return AuthResponse(status: .ok, headerFields: fields, body: body)
}

func makeRequest(_ path: String) throws -> AuthRequest {
    try AuthRequest(method: .get, url: BenchmarkSupport.url("https://api.example.com\(path)"))
}

/// Resident memory of this process in bytes, from `/proc/self/statm`.
func residentBytes() throws -> Int {
    let statm = try String(contentsOfFile: "/proc/self/statm", encoding: .utf8).split(separator: " ")
    guard statm.count > 1, let pages = Int(statm[1]) else { throw BenchmarkSetupError("/proc/self/statm is unreadable") }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

let benchmarks: @Sendable () -> Void = {
    let perRequest = Benchmark.Configuration.suite(.nanoseconds, scaling: .kilo, warmup: 5, maxDuration: .seconds(3), maxIterations: 2_000)
    var perRequestPaired = perRequest
    perRequestPaired.metrics = Paired.metrics

    Benchmark("noop transport send (baseline)", configuration: perRequest) { benchmark in
        let request = try makeRequest("/v1/me")
        try await CPUTime.measure(benchmark) {
            for _ in benchmark.scaledIterations {
                blackHole(try await origin.send(request))
            }
        }
    }

    Benchmark("cache hit, warm entry", configuration: perRequestPaired) { (benchmark: Benchmark, fixture: (AuthClient, ResponseCache)) in
        let (client, cache) = fixture
        let request = try makeRequest("/v1/me")
        let hitsBefore = cache.statistics.hits
        try await Paired.measure(benchmark) {
            for _ in benchmark.scaledIterations {
                blackHole(try await origin.send(request))
            }
        } subject: {
            for _ in benchmark.scaledIterations {
                blackHole(try await client.send(request))
            }
        }
        let hits = cache.statistics.hits - hitsBefore
        guard hits == benchmark.scaledIterations.count else {
            throw BenchmarkSetupError("\(hits) of \(benchmark.scaledIterations.count) requests were hits")
        }
    } setup: {
        let cache = ResponseCache()
        let client = AuthClient(transport: origin, middlewares: [CacheMiddleware(cache: cache, account: account)])
        _ = try await client.send(try makeRequest("/v1/me"))
        guard cache.entryCount(for: account) == 1 else { throw BenchmarkSetupError("the warm-up response was not stored") }
        return (client, cache)
    }

    let bytesCounted = BenchmarkMetric.custom("cache bytes counted", useScalingFactor: false)
    let residentGrowth = BenchmarkMetric.custom("resident memory gained (bytes)", useScalingFactor: false)
    let capPermille = BenchmarkMetric.custom("resident gained / byte cap x1000", useScalingFactor: false)
    let urlCount = 1_000_000

    Benchmark("1,000,000 distinct URLs, 16 MiB cap", configuration: .init(
        metrics: [.wallClock, .peakMemoryResident, bytesCounted, residentGrowth, capPermille],
        timeUnits: .milliseconds,
        warmupIterations: 0,
        scalingFactor: .one,
        maxDuration: .seconds(120),
        maxIterations: 3
    )) { benchmark in
        let configuration = ResponseCacheConfiguration(maxEntries: urlCount, maxBytes: 16 << 20)
        var cache: ResponseCache? = ResponseCache(configuration: configuration)
        let client = AuthClient(transport: origin, middlewares: [CacheMiddleware(cache: cache!, account: account)])
        let before = try residentBytes()
        benchmark.startMeasurement()
        for index in 0..<urlCount {
            blackHole(try await client.send(try makeRequest("/v1/items/\(index)")))
        }
        benchmark.stopMeasurement()
        let after = try residentBytes()
        guard let statistics = cache?.statistics, statistics.misses == urlCount, statistics.byteCount <= configuration.maxBytes else {
            throw BenchmarkSetupError("the cache did not miss \(urlCount) times within its cap: \(String(describing: cache?.statistics))")
        }
        benchmark.measurement(bytesCounted, statistics.byteCount)
        benchmark.measurement(residentGrowth, max(0, after - before))
        benchmark.measurement(capPermille, max(0, after - before) * 1_000 / configuration.maxBytes)
        cache = nil
    }
}
