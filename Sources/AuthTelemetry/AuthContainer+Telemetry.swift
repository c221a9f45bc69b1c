public import AuthCore
public import CoreMetrics
public import Tracing

extension AuthContainer {
    /// Reports every client of this container to swift-metrics and swift-distributed-tracing (see
    /// ``AuthTelemetry``): a ``RequestTelemetryMiddleware`` outermost in each client, and the
    /// container's events counted. Wrap refreshers in ``TelemetryTokenRefresher`` to time and
    /// trace renewals too.
    ///
    /// ```swift
    /// let telemetry = container.useTelemetry()
    /// ```
    /// - Returns: The telemetry (keep it: releasing it stops counting events).
    @discardableResult
    public func useTelemetry(metrics: any MetricsFactory = MetricsSystem.factory, tracer: any Tracer = InstrumentationSystem.tracer, includesAccount: Bool = false) -> AuthTelemetry {
        let telemetry = AuthTelemetry(metrics: metrics, tracer: tracer, includesAccount: includesAccount)
        telemetry.observe(self[AuthEventsKey.self])
        var plugins = self[PluginMiddlewaresKey.self]
        plugins.outer.insert({ context in RequestTelemetryMiddleware(telemetry: telemetry, account: context.account) }, at: 0)
        override(PluginMiddlewaresKey.self, with: plugins)
        return telemetry
    }
}
