import AsyncHTTPClient
import Tracing

extension HTTPClient.Configuration {
    /// Leaves out a tracer that records nothing.
    ///
    /// AsyncHTTPClient keeps the tracer bootstrapped when the configuration was made, and with
    /// `NoOpTracer` (what a process has until it bootstraps one) it still opens a span for every
    /// request, sets its attributes and swaps the task's service context around it: about 39,000
    /// instructions a request, a sixth of a whole GET over loopback
    /// (`Benchmarks/scripts/callgrind-e2e`), for nothing anyone can see. Without a tracer it skips
    /// all of that. A tracer that records, bootstrapped or bound with `withTracer` when the
    /// configuration is made, stays.
    mutating func leaveOutNoOpTracer() {
        if tracing.tracer is NoOpTracer { tracing.tracer = nil }
    }
}
