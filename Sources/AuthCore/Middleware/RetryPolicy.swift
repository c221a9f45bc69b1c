// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// When and how the ``RetryMiddleware`` repeats a request.
public struct RetryPolicy: Sendable, Equatable {
    /// Attempts in all, the first included (default 3).
    public var maxAttempts: Int
    /// The first backoff ceiling; doubled each attempt (default 200 ms).
    public var baseDelay: Duration
    /// The largest backoff ceiling (default 10 s).
    public var maxDelay: Duration
    /// The longest `Retry-After` honoured; longer values are capped to it (default 60 s).
    public var maxRetryAfter: Duration
    /// No retry starts once this much time has passed since the first attempt (default 120 s).
    public var totalBudget: Duration
    /// Statuses worth retrying (default 408, 429, 500, 502, 503, 504).
    public var retryableStatuses: Set<Int>
    /// Whether transport failures (refused connection, reset) are retried (default true).
    public var retryTransportErrors: Bool

    /// Creates a policy.
    public init(
        maxAttempts: Int = 3, baseDelay: Duration = .milliseconds(200), maxDelay: Duration = .seconds(10),
        maxRetryAfter: Duration = .seconds(60), totalBudget: Duration = .seconds(120),
        retryableStatuses: Set<Int> = [408, 429, 500, 502, 503, 504], retryTransportErrors: Bool = true
    ) {
        self.maxAttempts = maxAttempts
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.maxRetryAfter = maxRetryAfter
        self.totalBudget = totalBudget
        self.retryableStatuses = retryableStatuses
        self.retryTransportErrors = retryTransportErrors
    }

    /// The full-jitter backoff before attempt `attempt + 1`: uniform in `0 ... min(max, base·2^(attempt-1))`.
    public func backoff(afterAttempt attempt: Int, random: Double) -> Duration {
        let ceiling = min(maxDelay.seconds, baseDelay.seconds * pow2(attempt - 1))
        return .seconds(ceiling * min(max(random, 0), 1))
    }

    private func pow2(_ n: Int) -> Double {
        n <= 0 ? 1 : Double(1 << min(n, 30))
    }
}
