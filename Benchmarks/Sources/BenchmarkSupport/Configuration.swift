// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Benchmark

extension Benchmark.Configuration {
    /// The settings every suite here uses, with the metrics of ``CPUTime``; only the units, the
    /// scale and the limits differ between suites (paired benchmarks swap in ``Paired/metrics``).
    /// - Parameters:
    ///   - timeUnits: The unit of the time metrics.
    ///   - scaling: Operations per measured iteration (`.kilo` for sub-microsecond loops).
    ///   - warmup: Iterations run before measuring.
    ///   - maxDuration: Measuring stops after this long…
    ///   - maxIterations: …or after this many iterations.
    public static func suite(
        _ timeUnits: BenchmarkTimeUnits, scaling: BenchmarkScalingFactor, warmup: Int,
        maxDuration: Duration, maxIterations: Int
    ) -> Benchmark.Configuration {
        Benchmark.Configuration(
            metrics: CPUTime.metrics,
            timeUnits: timeUnits,
            warmupIterations: warmup,
            scalingFactor: scaling,
            maxDuration: maxDuration,
            maxIterations: maxIterations
        )
    }
}
