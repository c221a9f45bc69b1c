// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes

/// Repeats requests that failed for a reason that may pass: 408, 429, 5xx statuses in the policy
/// and transport failures.
///
/// Waits with exponential backoff and full jitter, or for the server's `Retry-After` (seconds or
/// HTTP-date, capped at ``RetryPolicy/maxRetryAfter``). Only idempotent methods are retried,
/// unless the request sets `options.retryNonIdempotent` or carries an `Idempotency-Key` header.
/// The wait is cancellable: cancelling the task ends it with `CancellationError`.
public struct RetryMiddleware: Middleware {
    /// The policy.
    public let policy: RetryPolicy
    private let clock: any AuthClock
    private let random: @Sendable () -> Double

    /// Creates the middleware.
    /// - Parameters:
    ///   - policy: Which failures are retried, how often and how long apart.
    ///   - clock: The clock the waits sleep on.
    ///   - random: A source of uniform values in 0...1 for the jitter.
    public init(policy: RetryPolicy = .init(), clock: any AuthClock = SystemClock(), random: @escaping @Sendable () -> Double = { Double.random(in: 0...1) }) {
        self.policy = policy
        self.clock = clock
        self.random = random
    }

    /// Sends, and repeats while the policy allows.
    public nonisolated(nonsending) func intercept(_ request: AuthRequest, next: Next) async throws -> AuthResponse {
        guard Self.mayRetry(request), policy.maxAttempts > 1 else { return try await next(request) }
        let start = clock.now()
        var attempt = 1
        while true {
            let delay: Duration
            do {
                let response = try await next(request)
                guard let wait = retryDelay(after: response, attempt: attempt, start: start) else { return response }
                delay = wait
            } catch {
                guard let wait = retryDelay(after: error, attempt: attempt, start: start) else { throw error }
                delay = wait
            }
            try await clock.sleep(for: delay)
            attempt += 1
        }
    }

    /// How long to wait before trying again after `response`; nil to return it.
    private func retryDelay(after response: AuthResponse, attempt: Int, start: Date) -> Duration? {
        guard policy.retryableStatuses.contains(response.status.code), attempt < policy.maxAttempts else { return nil }
        let delay = waitTime(for: response, attempt: attempt)
        return fitsBudget(start: start, delay: delay) ? delay : nil
    }

    /// How long to wait before trying again after `error`; nil to throw it.
    private func retryDelay(after error: any Error, attempt: Int, start: Date) -> Duration? {
        guard let error = error as? AuthError, error.code == .transport, policy.retryTransportErrors, attempt < policy.maxAttempts else { return nil }
        let delay = policy.backoff(afterAttempt: attempt, random: random())
        return fitsBudget(start: start, delay: delay) ? delay : nil
    }

    private func waitTime(for response: AuthResponse, attempt: Int) -> Duration {
        if let value = response.head.headerFields[.retryAfter], let seconds = RetryAfter.seconds(value, now: clock.now()) {
            return .clamped(seconds: seconds, to: policy.maxRetryAfter)
        }
        return policy.backoff(afterAttempt: attempt, random: random())
    }

    private func fitsBudget(start: Date, delay: Duration) -> Bool {
        clock.now().timeIntervalSince(start) + delay.seconds <= policy.totalBudget.seconds
    }

    private static let idempotencyKey = HTTPField.Name("Idempotency-Key")!

    /// Whether the request may be sent more than once.
    static func mayRetry(_ request: AuthRequest) -> Bool {
        // The method first: most requests are GETs, which need neither of the other checks.
        switch request.head.method {
        case .get, .head, .options, .trace, .put, .delete: return true
        default: return request.options.retryNonIdempotent || request.head.headerFields.contains(idempotencyKey)
        }
    }
}
