// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Foundation
import HTTPTypes

/// The freshness arithmetic of RFC 9111 §4.2, on plain numbers so that it is easy to check.
enum Freshness {
    /// The freshness lifetime of a response (§4.2.1): `max-age`, else `Expires` minus `Date`,
    /// else `defaultLifetime`. An `Expires` that is not an HTTP date makes the response stale.
    static func lifetime(of fields: HTTPFields, directives: CacheControl, responseTime: Date, defaultLifetime: TimeInterval) -> TimeInterval {
        if let maxAge = directives.maxAge { return TimeInterval(maxAge) }
        if let expires = fields[.expires] {
            guard let expiry = HTTPDate.parse(expires) else { return 0 }
            let date = fields[.date].flatMap(HTTPDate.parse) ?? responseTime
            return max(0, expiry.timeIntervalSince(date))
        }
        return defaultLifetime
    }

    /// The age a response already had when it arrived (§4.2.3 `corrected_initial_age`): the
    /// larger of the age its `Date` implies and its `Age` header plus the time it took to arrive.
    static func correctedInitialAge(of fields: HTTPFields, requestTime: Date, responseTime: Date) -> TimeInterval {
        let date = fields[.date].flatMap(HTTPDate.parse) ?? responseTime
        let apparentAge = max(0, responseTime.timeIntervalSince(date))
        let ageValue = fields[.age].flatMap(ageSeconds) ?? 0
        let responseDelay = max(0, responseTime.timeIntervalSince(requestTime))
        return max(apparentAge, ageValue + responseDelay)
    }

    /// The value of an `Age` field; nil (ignored) when it is not a non-negative integer (§5.1).
    static func ageSeconds(_ text: String) -> TimeInterval? {
        let trimmed = Substring(text).trimmingSpaces()
        guard !trimmed.isEmpty, trimmed.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return TimeInterval(Int(trimmed) ?? Int.max)
    }
}

