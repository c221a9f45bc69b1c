// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
public import HTTPTypes

/// The `Cache-Control` directives of a request or a response (RFC 9111 §5.2), as far as a
/// private client cache acts on them.
///
/// Unknown directives are ignored. A delta-seconds value that is not a non-negative integer
/// makes the directive count as `0` (RFC 9111 §1.2.2: treat invalid freshness as stale), and
/// values too large for an `Int` saturate. `no-cache="Set-Cookie"` and `private="…"` with field
/// names are treated as the plain directives, which is the stricter reading.
///
/// ```swift
/// let directives = CacheControl(response.head.headerFields)
/// let mayStore = !directives.noStore
/// ```
public struct CacheControl: Sendable, Equatable {
    /// `no-store`: never store the response (or, on a request, this exchange).
    public var noStore = false
    /// `no-cache`: a stored response may be used only after a successful revalidation.
    public var noCache = false
    /// `private`: only a private cache (such as this one) may store the response.
    public var isPrivate = false
    /// `public`: any cache may store the response.
    public var isPublic = false
    /// `must-revalidate`: once stale, never serve the response without revalidating it.
    public var mustRevalidate = false
    /// `only-if-cached` (request): answer from the cache or with 504.
    public var onlyIfCached = false
    /// `max-age` in seconds: the response's freshness lifetime, or (on a request) the oldest
    /// stored response the client accepts.
    public var maxAge: Int?
    /// `stale-if-error` in seconds (RFC 5861): how long past its freshness a response may be
    /// served when the origin fails.
    public var staleIfError: Int?

    /// Directives with none set.
    public init() {}

    /// Parses every `Cache-Control` field in `fields`.
    public init(_ fields: HTTPFields) {
        self.init()
        for value in fields[values: .cacheControl] { parse(value) }
    }

    /// Parses one `Cache-Control` field value.
    public init(_ value: String) {
        self.init()
        parse(value)
    }

    private mutating func parse(_ value: String) {
        for part in value.split(separator: ",") {
            let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = pieces[0].trimmingSpaces().lowercased()
            let argument = pieces.count > 1 ? pieces[1].trimmingSpaces() : nil
            switch name {
            case "no-store": noStore = true
            case "no-cache": noCache = true
            case "private": isPrivate = true
            case "public": isPublic = true
            case "must-revalidate": mustRevalidate = true
            case "only-if-cached": onlyIfCached = true
            case "max-age": maxAge = Self.merge(maxAge, Self.seconds(argument))
            case "stale-if-error": staleIfError = Self.merge(staleIfError, Self.seconds(argument))
            default: continue
            }
        }
    }

    /// A repeated directive keeps the smaller value: the stricter reading of a conflict.
    private static func merge(_ old: Int?, _ new: Int) -> Int {
        old.map { min($0, new) } ?? new
    }

    /// Delta-seconds (RFC 9111 §1.2.2); quoted values are accepted, anything else is `0`.
    static func seconds(_ text: Substring?) -> Int {
        guard var text else { return 0 }
        if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") { text = text.dropFirst().dropLast() }
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return 0 }
        return Int(text) ?? Int.max
    }
}
