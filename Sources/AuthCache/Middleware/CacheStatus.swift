// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
public import HTTPTypes

extension HTTPField.Name {
    /// `Cache-Status` (RFC 9211): how each cache on the way handled the response.
    public static let cacheStatus = HTTPField.Name("Cache-Status")!
}

/// How ``CacheMiddleware`` answered a request it looked up: set on the response as
/// `AuthResponse.cacheOutcome` (for metrics: a server cannot forge it), counted in the cache's
/// ``ResponseCacheStatistics``, and written as this cache's `Cache-Status` member (RFC 9211), the
/// last of the list, named `AuthKit`:
///
/// | outcome | member |
/// |---|---|
/// | served from the cache | `AuthKit; hit` |
/// | nothing stored, sent to the server | `AuthKit; fwd=uri-miss` |
/// | stale, revalidated with a 304 | `AuthKit; fwd=stale; fwd-status=304` |
/// | stale, replaced by the server's answer | `AuthKit; fwd=stale; fwd-status=<status>` |
/// | stale, served because the server failed | `AuthKit; fwd=stale; fwd-status=<status>; detail=stale-if-error` (no status after a transport error) |
/// | `only-if-cached` with nothing usable (504) | `AuthKit; detail=only-if-cached` |
enum CacheStatus {
    case hit
    case miss
    case revalidated
    case forwardedStale(status: Int)
    case staleServed(failureStatus: Int?)
    case onlyIfCached

    /// This cache's member of the field.
    var member: String {
        switch self {
        case .hit: "AuthKit; hit"
        case .miss: "AuthKit; fwd=uri-miss"
        case .revalidated: "AuthKit; fwd=stale; fwd-status=304"
        case .forwardedStale(let status): "AuthKit; fwd=stale; fwd-status=\(status)"
        case .staleServed(let status?): "AuthKit; fwd=stale; fwd-status=\(status); detail=stale-if-error"
        case .staleServed(nil): "AuthKit; fwd=stale; detail=stale-if-error"
        case .onlyIfCached: "AuthKit; detail=only-if-cached"
        }
    }

    var outcome: ResponseCacheOutcome {
        switch self {
        case .hit: .hit
        case .miss, .onlyIfCached, .forwardedStale: .miss
        case .revalidated: .revalidated
        case .staleServed: .stale
        }
    }

    /// The statistic counted when the answer is made. A miss is counted at the lookup instead,
    /// before the request is forwarded, so a miss whose fetch fails counts too.
    var counter: ResponseCache.Counter? {
        switch self {
        case .hit: .hit
        case .miss, .onlyIfCached: nil
        case .revalidated: .revalidation
        case .staleServed: .staleServed
        case .forwardedStale: .miss
        }
    }
}

extension CacheMiddleware {
    /// `response` as this cache's answer: its outcome set, counted, and its `Cache-Status` member
    /// added. Every response to a request the cache looked up goes through here, after anything
    /// is stored, so the stored copy never carries the member.
    func answer(_ response: AuthResponse, _ status: CacheStatus) -> AuthResponse {
        if let counter = status.counter { cache.count(counter) }
        var response = response
        response.cacheOutcome = status.outcome
        response.head.headerFields.append(HTTPField(name: .cacheStatus, value: status.member))
        return response
    }
}
