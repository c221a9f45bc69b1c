// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Benchmark
import Foundation
import Synchronization

/// A subject measured next to its baseline in the same iteration.
///
/// Each iteration runs the baseline loop (timed here, outside package-benchmark's measured
/// region, so that the region's metrics, such as its allocation count, are the subject's alone)
/// and the subject loop between `startMeasurement()` and `stopMeasurement()`: the baseline first
/// in one iteration and second in the next, so that neither always meets caches the other has
/// just warmed or a core the other has just left busy. The two are milliseconds apart, so a load
/// spike from the other builds on this shared machine hits both and the per-iteration ratio
/// stays meaningful; the separate baseline benchmarks run in other processes, minutes apart.
public enum Paired {
    /// The baseline loop's wall time, per operation.
    public static let baseline = BenchmarkMetric.custom("paired: baseline wall (ns)")
    /// Subject minus baseline wall time, per operation (0 when the baseline was slower).
    public static let difference = BenchmarkMetric.custom("paired: subject - baseline (ns)")
    /// Subject wall time ÷ the denominator (the baseline unless a benchmark says otherwise), × 1000.
    public static let ratio = BenchmarkMetric.custom("paired: ratio x1000", useScalingFactor: false)

    /// The metrics of a paired benchmark.
    public static let metrics: [BenchmarkMetric] = CPUTime.metrics + [baseline, difference, ratio]

    /// Monotonic nanoseconds.
    public static func wall() -> Int {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Int(spec.tv_sec) * 1_000_000_000 + Int(spec.tv_nsec)
    }

    public static func record(_ benchmark: Benchmark, subject: Int, baseline: Int, cpu: Int, denominator: (Int) -> Int) {
        benchmark.measurement(CPUTime.metric, cpu)
        benchmark.measurement(Self.baseline, baseline)
        benchmark.measurement(difference, max(0, subject - baseline))
        benchmark.measurement(ratio, subject * 1_000 / max(1, denominator(baseline)))
    }

    /// Counts iterations, to alternate which loop goes first.
    private static let iterations = Atomic<Int>(0)

    /// Whether this iteration runs the baseline first: every other one does.
    private static func baselineFirst() -> Bool {
        iterations.add(1, ordering: .relaxed).oldValue % 2 == 0
    }

    /// Runs `baseline` and `subject` (the measured region), in turn first, and records the
    /// paired metrics.
    /// - Parameter denominator: Turns the baseline's wall time (whole iteration, ns) into the
    ///   value the ratio divides by; the baseline itself by default.
    public static func measure(
        _ benchmark: Benchmark,
        baseline: () throws -> Void,
        subject: () throws -> Void,
        denominator: (Int) -> Int = { $0 }
    ) rethrows {
        func timedBaseline() throws -> Int {
            let start = wall()
            try baseline()
            return wall() - start
        }
        let first = baselineFirst()
        let baselineBefore = first ? try timedBaseline() : 0
        // The subject's clocks start after `startMeasurement()` and stop before
        // `stopMeasurement()`, whose reading of the benchmark's own metrics (the allocator's
        // statistics, the process's CPU time) the baseline does not pay either.
        benchmark.startMeasurement()
        let cpuStart = CPUTime.now()
        let subjectStart = wall()
        try subject()
        let subjectTime = wall() - subjectStart
        let cpu = CPUTime.now() - cpuStart
        benchmark.stopMeasurement()
        let baselineTime = first ? baselineBefore : try timedBaseline()
        record(benchmark, subject: subjectTime, baseline: baselineTime, cpu: cpu, denominator: denominator)
    }

    /// The async form of ``measure(_:baseline:subject:denominator:)-(_,()->Void,()->Void,_)``.
    public static func measure(
        _ benchmark: Benchmark,
        baseline: () async throws -> Void,
        subject: () async throws -> Void,
        denominator: (Int) -> Int = { $0 }
    ) async rethrows {
        func timedBaseline() async throws -> Int {
            let start = wall()
            try await baseline()
            return wall() - start
        }
        let first = baselineFirst()
        let baselineBefore = first ? try await timedBaseline() : 0
        benchmark.startMeasurement()
        let cpuStart = CPUTime.now()
        let subjectStart = wall()
        try await subject()
        let subjectTime = wall() - subjectStart
        let cpu = CPUTime.now() - cpuStart
        benchmark.stopMeasurement()
        let baselineTime = first ? baselineBefore : try await timedBaseline()
        record(benchmark, subject: subjectTime, baseline: baselineTime, cpu: cpu, denominator: denominator)
    }
}
