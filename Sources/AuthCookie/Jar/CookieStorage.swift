// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// The jar's state: cookies indexed by their domain, so that a request looks at the buckets of
/// its host and of the host's parent domains only, never at every cookie.
///
/// Not thread-safe by itself; ``CookieJar`` keeps it behind a mutex.
struct CookieStorage {
    /// Cookies by ``Cookie/domain``.
    var buckets: [DomainKey: [Cookie]] = [:]
    /// The number of cookies in all buckets.
    private(set) var count = 0
    /// Incremented whenever a cookie is added, replaced or removed (not when one is only sent).
    private(set) var generation: UInt64 = 0
    private var nextSequence: UInt64 = 0
    /// The sign-in whose session the cookies hold (``CookieJar/session``).
    var session: UUID?

    /// Step 11–12 of §5.3 and the jar's limits: replaces a cookie of the same name, domain and
    /// path (keeping its creation time), stores the new one unless it has already expired, then
    /// evicts over the per-domain and total limits.
    mutating func store(_ newCookie: Cookie, configuration: CookieJarConfiguration, now: Date) {
        var cookie = newCookie
        let key = DomainKey(cookie.domain)
        var bucket = buckets.removeValue(forKey: key) ?? []
        if let old = bucket.firstIndex(where: { $0.name == cookie.name && $0.path == cookie.path }) {
            cookie.creationTime = bucket[old].creationTime
            cookie.sequence = bucket[old].sequence
            bucket.remove(at: old)
            count -= 1
            generation &+= 1
        } else {
            cookie.sequence = nextSequence
            nextSequence &+= 1
        }
        if !cookie.isExpired(at: now) {
            bucket.append(cookie)
            count += 1
            generation &+= 1
            if bucket.count > configuration.maxCookiesPerDomain {
                evict(from: &bucket, downTo: configuration.maxCookiesPerDomain, now: now)
            }
        }
        if !bucket.isEmpty { buckets[key] = bucket }
        if count > configuration.maxTotalCookies { evictGlobally(downTo: configuration.maxTotalCookies, now: now) }
    }

    /// The value of the cookie stored under `identity`, if any.
    func value(of identity: Cookie.Identity) -> String? {
        buckets[DomainKey(identity.domain)]?.first { $0.name == identity.name && $0.path == identity.path }?.value
    }

    /// Removes every expired cookie.
    mutating func removeExpired(now: Date) {
        for key in Array(buckets.keys) {
            guard let bucket = buckets[key], bucket.contains(where: { $0.isExpired(at: now) }) else { continue }
            let kept = bucket.filter { !$0.isExpired(at: now) }
            count -= bucket.count - kept.count
            generation &+= 1
            buckets[key] = kept.isEmpty ? nil : kept
        }
    }

    /// Removes every cookie; an empty jar holds no session.
    mutating func removeAll() {
        if count > 0 { generation &+= 1 }
        buckets.removeAll()
        count = 0
        session = nil
    }

    /// Every cookie, in creation order.
    var allCookies: [Cookie] {
        buckets.values.flatMap { $0 }.sorted(by: Cookie.creationOrder)
    }

    private mutating func evict(from bucket: inout [Cookie], downTo limit: Int, now: Date) {
        let before = bucket.count
        bucket.removeAll { $0.isExpired(at: now) }
        while bucket.count > limit, let victim = bucket.indices.min(by: { Cookie.evictionOrder(bucket[$0], bucket[$1]) }) {
            bucket.remove(at: victim)
        }
        count -= before - bucket.count
    }

    /// Over the total limit: removes the expired cookies, then, if still over, the least
    /// recently accessed ones down to ``purgeTarget(for:)``, in one sort.
    ///
    /// Evicting a tenth below the limit at once (as Chromium does: 3,300 down to 3,000) makes the
    /// limit cost amortised O(log n) per stored cookie: the next purge comes only after that
    /// many more cookies. Evicting one at a time meant a scan of the whole jar per cookie
    /// (20,000 hosts × 1 cookie took minutes).
    private mutating func evictGlobally(downTo limit: Int, now: Date) {
        removeExpired(now: now)
        guard count > limit else { return }
        let target = Self.purgeTarget(for: limit)
        var candidates: [Cookie] = []
        candidates.reserveCapacity(count)
        for bucket in buckets.values { candidates.append(contentsOf: bucket) }
        candidates.sort(by: Cookie.evictionOrder)
        let victims = Set(candidates.prefix(count - target).map(\.identity))
        for key in Array(buckets.keys) {
            guard let bucket = buckets[key], bucket.contains(where: { victims.contains($0.identity) }) else { continue }
            let kept = bucket.filter { !victims.contains($0.identity) }
            count -= bucket.count - kept.count
            buckets[key] = kept.isEmpty ? nil : kept
        }
        generation &+= 1
    }

    /// How many cookies a purge of the total limit leaves: a tenth below the limit.
    static func purgeTarget(for limit: Int) -> Int {
        limit - limit / 10
    }
}
