// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AsyncHTTPClient
import Tracing

extension HTTPClient.Configuration {
    /// Leaves out a tracer that records nothing.
    ///
    /// AsyncHTTPClient keeps the tracer bootstrapped when the configuration was made, and with
    /// `NoOpTracer` (what a process has until it bootstraps one) it still opens a span for every
    /// request, sets its attributes and swaps the task's service context around it: about 37,000
    /// instructions a request, some 15 % of a whole GET over loopback (callgrind, the same client
    /// with and without; `Benchmarks/README.md`), for nothing anyone can see. Without a tracer it
    /// skips all of that. A tracer that records, bootstrapped or bound with `withTracer` when the
    /// configuration is made, stays.
    mutating func leaveOutNoOpTracer() {
        if tracing.tracer is NoOpTracer { tracing.tracer = nil }
    }
}
