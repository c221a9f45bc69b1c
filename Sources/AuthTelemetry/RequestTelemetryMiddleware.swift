// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
import CoreMetrics
import Tracing

/// Times each request and wraps it in an `authkit.request` span (see ``AuthTelemetry``); placed
/// outermost, so the time includes redirects, retries, their waits and a renewal the request
/// waited for, and a response-cache hit. A response a cache answered (`AuthResponse.cacheOutcome`,
/// which AuthCache sets and a server cannot) is also counted in `authkit_cache_lookups` by outcome
/// (`hit`, `miss`, `revalidated`, `stale`), and the span gets `authkit.cache`. The span is `.internal`, the logical operation: the HTTP
/// client span of each attempt is the transport's (AsyncHTTPClient makes one and sends the trace
/// headers), a child of it.
public struct RequestTelemetryMiddleware: Middleware {
    /// Where metrics and spans go.
    public let telemetry: AuthTelemetry
    /// The account of the client.
    public let account: AccountKey?
    private let timers: OutcomeMetrics<Timer>
    private let cacheLookups: OutcomeMetrics<Counter>

    /// A middleware reporting to `telemetry` for `account`'s client.
    public init(telemetry: AuthTelemetry, account: AccountKey?) {
        self.telemetry = telemetry
        self.account = account
        self.timers = OutcomeMetrics(timers: "authkit_requests", telemetry: telemetry, account: account)
        self.cacheLookups = OutcomeMetrics(counters: "authkit_cache_lookups", telemetry: telemetry, account: account)
    }

    /// Times and traces the request.
    public nonisolated(nonsending) func intercept(_ request: AuthRequest, next: Next) async throws -> AuthResponse {
        let started = ContinuousClock.now
        var outcome = "error"
        defer { timers.record(ContinuousClock.now - started, outcome: outcome) }
        // The closure returns the outcome rather than throwing it: `withSpan` records a thrown
        // error on the span, and a backend shows its whole description (the account, an
        // underlying error's text); only the code is put on the span.
        let result: Result<AuthResponse, any Error> = await telemetry.tracer.withSpan("authkit.request", ofKind: .internal) { span in
            let recording = span.isRecording  // attributes cost strings: none for a no-op tracer
            if recording {
                span.attributes["http.request.method"] = request.head.method.rawValue
                if let authority = request.head.authority { span.attributes["server.address"] = Self.host(of: authority) }
                telemetry.annotate(span, account: account)
            }
            do {
                let response = try await next(request)
                let code = Int(response.status.code)
                outcome = Self.statusClasses[min(max(code / 100, 0), 5)]
                if recording { span.attributes["http.response.status_code"] = code }
                if let cache = response.cacheOutcome {
                    cacheLookups(cache.rawValue).increment()
                    if recording { span.attributes["authkit.cache"] = cache.rawValue }
                }
                if code >= 400 {
                    span.attributes["error.type"] = String(code)
                    span.setStatus(SpanStatus(code: .error))
                }
                return .success(response)
            } catch {
                outcome = telemetry.fail(span, with: error)
                return .failure(error)
            }
        }
        return try result.get()
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
