// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import CoreMetrics
import Synchronization

/// The metrics of one label for one account, one per outcome, each made once: a backend's
/// factory call (a lookup under its lock, an allocation) stays off the per-request path.
final class OutcomeMetrics<Metric: Sendable>: Sendable {
    private let label: String
    private let telemetry: AuthTelemetry
    private let account: AccountKey?
    private let make: @Sendable (_ label: String, _ dimensions: [(String, String)], _ factory: any MetricsFactory) -> Metric
    private let metrics = Mutex<[String: Metric]>([:])

    init(
        label: String, telemetry: AuthTelemetry, account: AccountKey?,
        make: @escaping @Sendable (_ label: String, _ dimensions: [(String, String)], _ factory: any MetricsFactory) -> Metric
    ) {
        self.label = label
        self.telemetry = telemetry
        self.account = account
        self.make = make
    }

    /// The metric of `outcome`.
    func callAsFunction(_ outcome: String) -> Metric {
        metrics.withLock { metrics in
            if let metric = metrics[outcome] { return metric }
            let metric = make(label, telemetry.dimensions(account, [("outcome", outcome)]), telemetry.metrics)
            metrics[outcome] = metric
            return metric
        }
    }
}

extension OutcomeMetrics where Metric == Timer {
    /// Timers named `label`.
    convenience init(timers label: String, telemetry: AuthTelemetry, account: AccountKey?) {
        self.init(label: label, telemetry: telemetry, account: account) { Timer(label: $0, dimensions: $1, factory: $2) }
    }

    /// Records `elapsed` under `outcome`.
    func record(_ elapsed: Duration, outcome: String) {
        self(outcome).recordNanoseconds(elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000)
    }
}

extension OutcomeMetrics where Metric == Counter {
    /// Counters named `label`.
    convenience init(counters label: String, telemetry: AuthTelemetry, account: AccountKey?) {
        self.init(label: label, telemetry: telemetry, account: account) { Counter(label: $0, dimensions: $1, factory: $2) }
    }
}
