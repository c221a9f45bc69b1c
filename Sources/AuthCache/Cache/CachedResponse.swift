// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Foundation
import HTTPTypes

/// A stored response with what its freshness and revalidation need.
///
/// The body is `Data`, which is copy-on-write: serving a hit shares the stored bytes.
struct CachedResponse: Sendable {
    /// A request header field named by `Vary`, with the value the stored request had.
    struct VaryValue: Sendable, Equatable {
        let name: HTTPField.Name
        let value: String?
    }

    var head: HTTPResponse
    var body: Data
    var vary: [VaryValue]
    /// When the response (or its last revalidation) arrived, by the local clock.
    var responseTime: Date
    /// RFC 9111 `corrected_initial_age`, in seconds.
    var initialAge: TimeInterval
    /// The freshness lifetime, in seconds.
    var lifetime: TimeInterval
    /// Seconds past freshness the entry may be served when the origin fails.
    var staleIfError: TimeInterval
    /// `no-cache`: revalidate before every use.
    var alwaysRevalidate: Bool
    /// `must-revalidate` or `no-cache`: never serve it stale.
    var neverServeStale: Bool

    /// The current age (RFC 9111 §4.2.3) at `now`.
    func age(at now: Date) -> TimeInterval {
        initialAge + max(0, now.timeIntervalSince(responseTime))
    }

    /// Whether the entry may be used without revalidation at `age`.
    func isFresh(age: TimeInterval) -> Bool {
        !alwaysRevalidate && age < lifetime
    }

    /// Whether the entry may stand in for a failed origin at `age`.
    func canServeOnError(age: TimeInterval) -> Bool {
        !neverServeStale && staleIfError > 0 && age < lifetime + staleIfError
    }

    /// The validators a conditional request can carry.
    var etag: String? { head.headerFields[.eTag] }
    var lastModified: String? { head.headerFields[.lastModified] }

    /// Whether `request` selects this variant (RFC 9111 §4.1).
    func matches(_ request: HTTPRequest) -> Bool {
        vary.allSatisfy { request.headerFields[$0.name] == $0.value }
    }

    /// The response handed to the caller, with `Age` set to `age` in whole seconds.
    func response(age: TimeInterval) -> AuthResponse {
        var head = head
        head.headerFields[.age] = String(Int(min(max(0, age), TimeInterval(Int32.max))))
        return AuthResponse(head: head, body: body)
    }

    /// The bytes counted against the cache budget, key excluded.
    var byteCount: Int {
        var total = body.count + ResponseCacheConfiguration.entryOverhead
        for field in head.headerFields { total += field.name.rawName.utf8.count + field.value.utf8.count + 4 }
        for value in vary { total += value.name.rawName.utf8.count + (value.value?.utf8.count ?? 0) }
        return total
    }
}
