// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// How a response cache in the pipeline answered a request (AuthCache's `CacheMiddleware` sets
/// it on ``AuthResponse/cacheOutcome``): set in the process, never read from the wire, so a
/// server cannot claim it. Metrics read it (AuthTelemetry's `authkit_cache_lookups`).
public enum ResponseCacheOutcome: String, Sendable, Hashable {
    /// Served from the cache without asking the server.
    case hit
    /// Nothing usable was stored, or a stale entry could not stand in: the server answered (or
    /// failed), or `only-if-cached` got a 504.
    case miss
    /// A stale entry the server confirmed with a `304`.
    case revalidated
    /// A stale entry served because the server failed (`stale-if-error`).
    case stale
}
