// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// The limits and defaults of a ``ResponseCache``.
///
/// ```swift
/// var configuration = ResponseCacheConfiguration()
/// configuration.maxBytes = 8 << 20            // 8 MiB for every account together
/// configuration.defaultLifetime = .seconds(30) // for responses without freshness information
/// configuration.staleIfError = .seconds(300)   // serve a stale copy while the origin is down
/// ```
public struct ResponseCacheConfiguration: Sendable, Equatable {
    /// The most entries kept, over all accounts; the least recently used go first. Default 4096.
    public var maxEntries: Int
    /// The most bytes kept, over all accounts: body, header fields, key and a fixed
    /// ``entryOverhead`` per entry. Default 16 MiB.
    public var maxBytes: Int
    /// The largest single entry stored; larger responses pass through uncached. Default 1 MiB.
    public var maxEntryBytes: Int
    /// The freshness lifetime of a response that has neither `max-age` nor `Expires`.
    ///
    /// Default zero: such a response is stored only when it carries a validator (`ETag` or
    /// `Last-Modified`), and every use revalidates it, which costs a request but no body. Set a
    /// lifetime to reuse such responses without asking the server for that long.
    public var defaultLifetime: Duration
    /// How long past its freshness a stored response may be served when the origin answers
    /// 500, 502, 503 or 504 or cannot be reached, for responses without their own
    /// `stale-if-error`. Default zero (off). `must-revalidate` and `no-cache` responses are
    /// never served stale.
    public var staleIfError: Duration
    /// The statuses that may be stored: by default the ones RFC 9110 §15.1 calls heuristically
    /// cacheable, except 206 (partial content is not stored).
    public var cacheableStatuses: Set<Int>

    /// The bytes counted per entry for its bookkeeping (list slot, dictionary slot, dates).
    public static let entryOverhead = 160

    /// Creates a configuration.
    public init(
        maxEntries: Int = 4096,
        maxBytes: Int = 16 << 20,
        maxEntryBytes: Int = 1 << 20,
        defaultLifetime: Duration = .zero,
        staleIfError: Duration = .zero,
        cacheableStatuses: Set<Int> = [200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501]
    ) {
        self.maxEntries = maxEntries
        self.maxBytes = maxBytes
        self.maxEntryBytes = maxEntryBytes
        self.defaultLifetime = defaultLifetime
        self.staleIfError = staleIfError
        self.cacheableStatuses = cacheableStatuses
    }
}
