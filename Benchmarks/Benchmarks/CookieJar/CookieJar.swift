// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

// Building the Cookie header for one URL from a jar of 10,000 cookies over 1,000 domains
// (10 per domain), against a bare dictionary lookup of the host in the same run.
//
// Target: `CookieJar.cookieHeader(for:)` median ≤ 5 µs. The subject also runs the dictionary
// lookup in the same iteration (paired metrics).
//
// Also (issue 52): 20,000 hosts × 1 cookie stored into a jar with the default limits (3,000
// cookies), which evicts past the limit; target under one second.
import AuthCookie
import Benchmark
import BenchmarkSupport
import Foundation

let domainCount = 1_000
let cookiesPerDomain = 10
let probeHost = "d500.example.com"

/// A jar holding 10 cookies for each of `d0.example.com` … `d999.example.com`.
func makeJar() throws -> AuthCookie.CookieJar {
    let jar = AuthCookie.CookieJar(configuration: CookieJarConfiguration(
        maxCookiesPerDomain: 50, maxTotalCookies: 20_000))
    for domain in 0..<domainCount {
        let url = try BenchmarkSupport.url("https://d\(domain).example.com/")
        for index in 0..<cookiesPerDomain {
            try jar.setCookie(
                fromHeaderValue: "c\(index)=v\(domain)-\(index)-0123456789abcdef; Path=/; Max-Age=86400; Secure; HttpOnly; SameSite=Lax",
                for: url)
        }
    }
    guard jar.count == domainCount * cookiesPerDomain else {
        throw BenchmarkSetupError("the jar holds \(jar.count) cookies, not \(domainCount * cookiesPerDomain)")
    }
    return jar
}

/// The baseline's table: each host's cookie strings, the same shape as the jar's buckets.
func makeTable() -> [String: [String]] {
    var table: [String: [String]] = [:]
    for domain in 0..<domainCount {
        table["d\(domain).example.com"] = (0..<cookiesPerDomain).map { "c\($0)=v\(domain)-\($0)-0123456789abcdef" }
    }
    return table
}

let benchmarks: @Sendable () -> Void = {
    let configuration = Benchmark.Configuration.suite(.nanoseconds, scaling: .kilo, warmup: 5, maxDuration: .seconds(3), maxIterations: 2_000)

    var paired = configuration
    paired.metrics = Paired.metrics

    Benchmark("cookieHeader(for:), 10k cookies / 1k domains", configuration: paired) { (benchmark: Benchmark, fixture: (AuthCookie.CookieJar, [String: [String]])) in
        let (jar, table) = fixture
        let url = try BenchmarkSupport.url("https://\(probeHost)/account/settings?tab=profile")
        guard let header = jar.cookieHeader(for: url), header.split(separator: ";").count == cookiesPerDomain else {
            throw BenchmarkSetupError("the header does not carry the domain's \(cookiesPerDomain) cookies")
        }
        let host = probeHost
        Paired.measure(benchmark) {
            for _ in benchmark.scaledIterations {
                blackHole(table[identity(host)])
            }
        } subject: {
            for _ in benchmark.scaledIterations {
                blackHole(jar.cookieHeader(for: identity(url)))
            }
        }
    } setup: {
        (try makeJar(), makeTable())
    }

    var filling = Benchmark.Configuration.suite(.milliseconds, scaling: .one, warmup: 1, maxDuration: .seconds(20), maxIterations: 10)
    filling.metrics = [.wallClock, .cpuTotal, .peakMemoryResident]
    Benchmark("20,000 hosts × 1 cookie into a default jar (3,000 limit)", configuration: filling) { benchmark, urls in
        for _ in benchmark.scaledIterations {
            let jar = AuthCookie.CookieJar()
            for url in urls {
                _ = jar.setCookies(fromHeaderValues: ["sid=0123456789abcdef; Path=/; Max-Age=86400"], for: url)
            }
            guard jar.count <= 3_000 else { throw BenchmarkSetupError("the jar holds \(jar.count) cookies, over its limit") }
            blackHole(jar)
        }
    } setup: {
        try (0..<20_000).map { try BenchmarkSupport.url("https://h\($0).example.com/") }
    }

    Benchmark("dictionary lookup of the host (baseline)", configuration: configuration) { benchmark, table in
        let host = probeHost
        CPUTime.measure(benchmark) {
            for _ in benchmark.scaledIterations {
                blackHole(table[identity(host)])
            }
        }
    } setup: {
        makeTable()
    }
}
