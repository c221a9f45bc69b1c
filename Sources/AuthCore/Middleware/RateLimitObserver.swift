// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes

/// Turns rate-limit signals into ``AuthEvent/rateLimited(_:)`` events: any 429, a 503 with
/// `Retry-After`, and responses whose `X-RateLimit-Remaining` is 0.
///
/// It only observes; the retry middleware does the waiting. While no stream follows `events`
/// (``AuthEvents/stream()``), it reads nothing of a response.
public struct RateLimitObserver: ObservingMiddleware {
    private let events: AuthEvents
    private let account: AccountKey?
    private let clock: any AuthClock

    /// Creates the observer.
    public init(events: AuthEvents, account: AccountKey? = nil, clock: any AuthClock = SystemClock()) {
        self.events = events
        self.account = account
        self.clock = clock
    }

    /// Reports the response's rate-limit signal, if it has one and anything follows the events.
    public func didReceive(_ response: AuthResponse, for request: AuthRequest) {
        // The event is all this does: with no stream following, the response's fields are not read.
        guard events.hasObservers else { return }
        let status = response.status.code
        let remaining = response.headerValue(Self.remaining).flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard status == 429 || status == 503 || remaining == 0 else { return }
        let fields = response.head.headerFields
        let retryAfter = fields.value(.retryAfter).flatMap { RetryAfter.seconds($0, now: clock.now()) }
        guard status != 503 || retryAfter != nil || remaining == 0 else { return }
        let reset = fields[Self.reset].flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }.flatMap { $0.isFinite && abs($0) < 1e12 ? $0 : nil }.map { value in
            // Either seconds from now or a Unix time, as servers differ.
            value > 1_000_000_000 ? Date(timeIntervalSince1970: value) : clock.now().addingTimeInterval(value)
        }
        events.emit(.rateLimited(RateLimitInfo(
            account: account, origin: request.origin?.description ?? "", status: status,
            limit: fields[Self.limit].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) },
            remaining: remaining, reset: reset, retryAfter: retryAfter
        )))
    }

    static let limit = HTTPField.Name("X-RateLimit-Limit")!
    static let remaining = HTTPField.Name("X-RateLimit-Remaining")!
    static let reset = HTTPField.Name("X-RateLimit-Reset")!
}
