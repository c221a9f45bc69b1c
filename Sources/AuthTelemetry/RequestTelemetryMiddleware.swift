public import AuthCore
import CoreMetrics
import Tracing

/// Times each request and wraps it in an `authkit.request` span (see ``AuthTelemetry``); placed
/// outermost, so the time includes redirects, retries and a renewal the request waited for.
public struct RequestTelemetryMiddleware: Middleware {
    /// Where metrics and spans go.
    public let telemetry: AuthTelemetry
    /// The account of the client.
    public let account: AccountKey?
    private let timers: TimerCache

    /// A middleware reporting to `telemetry` for `account`'s client.
    public init(telemetry: AuthTelemetry, account: AccountKey?) {
        self.telemetry = telemetry
        self.account = account
        self.timers = TimerCache(label: "authkit_requests", telemetry: telemetry, account: account)
    }

    /// Times and traces the request.
    public nonisolated(nonsending) func intercept(_ request: AuthRequest, next: Next) async throws -> AuthResponse {
        let started = ContinuousClock.now
        var outcome = "error"
        defer { timers.record(ContinuousClock.now - started, outcome: outcome) }
        return try await telemetry.tracer.withSpan("authkit.request", ofKind: .client) { span in
            let recording = span.isRecording  // attributes cost strings: none for a no-op tracer
            if recording {
                span.attributes["http.request.method"] = request.head.method.rawValue
                if let authority = request.head.authority { span.attributes["server.address"] = Self.host(of: authority) }
                span.attributes["authkit.namespace"] = account?.namespace ?? "-"
                if telemetry.includesAccount, let account { span.attributes["authkit.account"] = account.account }
            }
            do {
                let response = try await next(request)
                let code = Int(response.status.code)
                outcome = Self.statusClasses[min(max(code / 100, 0), 5)]
                if recording { span.attributes["http.response.status_code"] = code }
                if code >= 500 { span.setStatus(SpanStatus(code: .error)) }
                return response
            } catch {
                // The code only: an error's description is the library's to keep secret-free,
                // a backend's to show; the code is enough to group by.
                outcome = (error as? AuthError)?.code.description ?? "\(type(of: error))"
                span.attributes["error.type"] = outcome
                span.setStatus(SpanStatus(code: .error))
                throw error
            }
        }
    }

    /// The outcome of a status, by its hundreds (made once, not per request).
    static let statusClasses = ["0xx", "1xx", "2xx", "3xx", "4xx", "5xx"]

    /// The host of an authority, without user information or port.
    static func host(of authority: String) -> String {
        let afterUser = authority.split(separator: "@").last.map(String.init) ?? authority
        if afterUser.hasPrefix("["), let end = afterUser.firstIndex(of: "]") { return String(afterUser[...end]) }
        return afterUser.split(separator: ":").first.map(String.init) ?? afterUser
    }
}
