// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Benchmark
import Foundation

/// Process CPU time around the measured loop, next to the wall clock.
///
/// The machine is shared (2 cores, other builds running), so a wall-clock sample also holds the
/// time the benchmark waited for a core. CPU time (`CLOCK_PROCESS_CPUTIME_ID`, all threads of the
/// benchmark process, nanosecond resolution) does not, which keeps subject/baseline ratios
/// meaningful under load. package-benchmark's own `.cpuTotal` counts scheduler ticks (10 ms),
/// too coarse for these loops.
public enum CPUTime {
    /// The custom metric: process CPU nanoseconds per operation (scaled like the wall clock).
    public static let metric = BenchmarkMetric.custom("CPU time, process (ns)")

    /// The metrics every benchmark here records.
    public static let metrics: [BenchmarkMetric] = [.wallClock, .mallocCountTotal, .throughput, metric]

    /// CPU time consumed so far by all threads of this process, in nanoseconds.
    public static func now() -> Int {
        var spec = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
        return Int(spec.tv_sec) * 1_000_000_000 + Int(spec.tv_nsec)
    }

    /// Runs `body` between `startMeasurement()` and `stopMeasurement()` and records its CPU time.
    public static func measure(_ benchmark: Benchmark, _ body: () throws -> Void) rethrows {
        let start = now()
        benchmark.startMeasurement()
        try body()
        benchmark.stopMeasurement()
        benchmark.measurement(metric, now() - start)
    }

    /// The async form of ``measure(_:_:)-(_,()->Void)``.
    public static func measure(_ benchmark: Benchmark, _ body: () async throws -> Void) async rethrows {
        let start = now()
        benchmark.startMeasurement()
        try await body()
        benchmark.stopMeasurement()
        benchmark.measurement(metric, now() - start)
    }
}
