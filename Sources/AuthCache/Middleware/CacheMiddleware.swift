// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
import Foundation
import HTTPTypes

/// Answers GET and HEAD requests of one account from a ``ResponseCache`` by the rules of HTTP
/// caching (RFC 9111), and stores what the server lets it keep.
///
/// Placed outermost in the pipeline (before redirects, retries and authentication), so a hit
/// costs no renewal, no retry and no network. Because it sits outside authentication, it
/// partitions entries by the account it was built for, never by the `Authorization` header.
///
/// What it does:
/// - a fresh entry is served with an `Age` field; a stale one (or one under `no-cache`) is
///   revalidated with `If-None-Match` / `If-Modified-Since`, and a `304` refreshes it and
///   returns the stored body with the stored status;
/// - `max-age`, `Expires` (minus `Date`) and `Age` set freshness; responses without them get
///   the configured default lifetime;
/// - `no-store` (request or response) and `Set-Cookie` responses are not stored; `private` is
///   (this is a per-user cache); request `no-cache` and `max-age` force revalidation;
///   `only-if-cached` answers 504 when nothing usable is stored;
/// - with `stale-if-error` (response directive or configuration), a failure of the server
///   (500, 502, 503, 504 or a transport error) is answered with the stale entry in that window;
/// - a successful POST, PUT, PATCH or DELETE removes the stored GET and HEAD responses of its URL;
/// - requests that carry their own conditional or `Range` fields, or a body, pass through;
/// - every answer to a request it looked up carries its `Cache-Status` member (RFC 9211): `hit`,
///   `fwd=uri-miss`, `fwd=stale` with the server's status, … (see ``HTTPTypes/HTTPField/Name/cacheStatus``).
///
/// A response reached through a redirect is stored under the URL the caller asked for.
///
/// ```swift
/// let cache = ResponseCache()
/// let client = AuthClient(transport: transport, middlewares: [CacheMiddleware(cache: cache, account: alice)])
/// ```
public struct CacheMiddleware: Middleware {
    /// The shared store.
    public let cache: ResponseCache
    /// The account whose entries this middleware reads and writes.
    public let account: AccountKey
    /// The clock that ages entries.
    public let clock: any AuthClock

    /// Creates the middleware of one account.
    /// - Parameters:
    ///   - cache: The store, shared by every account.
    ///   - account: The account this middleware's client acts as.
    ///   - clock: The clock that ages entries.
    public init(cache: ResponseCache, account: AccountKey, clock: any AuthClock = SystemClock()) {
        self.cache = cache
        self.account = account
        self.clock = clock
    }

    /// Answers from the cache, revalidates, or forwards and stores.
    public nonisolated(nonsending) func intercept(_ request: AuthRequest, next: Next) async throws -> AuthResponse {
        let method = request.head.method
        guard method == .get || method == .head else { return try await forwardUnsafe(request, next: next) }
        guard request.body.isEmpty, !Self.bypasses(request.head), let key = CacheEntryKey(account: account, request: request.head) else {
            return try await next(request)
        }
        let directives = CacheControl(request.head.headerFields)
        if directives.noStore { return try await next(request) }
        let (entry, ticket) = cache.lookup(key, request: request.head)
        guard let entry else {
            cache.count(.miss)
            if directives.onlyIfCached { return answer(AuthResponse(status: .gatewayTimeout), .onlyIfCached) }
            return answer(try await fetch(request, key: key, ticket: ticket, next: next), .miss)
        }
        let age = entry.age(at: clock.now())
        if entry.isFresh(age: age), !directives.noCache, directives.maxAge.map({ age <= TimeInterval($0) }) ?? true {
            return answer(entry.response(age: age), .hit)
        }
        if directives.onlyIfCached {
            cache.count(.miss)
            return answer(AuthResponse(status: .gatewayTimeout), .onlyIfCached)
        }
        return try await revalidate(request, entry: entry, key: key, ticket: ticket, next: next)
    }

    /// Sends a request no entry answers and stores the response when allowed.
    private nonisolated(nonsending) func fetch(_ request: AuthRequest, key: CacheEntryKey, ticket: ResponseCache.Ticket, next: Next) async throws -> AuthResponse {
        let requestTime = clock.now()
        let response = try await next(request)
        keep(response, for: request, key: key, requestTime: requestTime, ticket: ticket)
        return response
    }

    /// Stores a full response, or removes the entry it replaces when it may not be stored.
    func keep(_ response: AuthResponse, for request: AuthRequest, key: CacheEntryKey, requestTime: Date, ticket: ResponseCache.Ticket) {
        let entry = StoragePolicy.entry(
            for: response.head, body: response.body, request: request.head,
            requestTime: requestTime, responseTime: clock.now(), configuration: cache.configuration
        )
        if let entry { cache.store(entry, for: key, ticket: ticket) } else { cache.remove(key) }
    }

    /// Forwards a request with another method; a success invalidates the URL's stored responses
    /// (RFC 9111 §4.4), and what the account's requests in flight fetch is not stored
    /// (``ResponseCache/invalidate(_:)``).
    private nonisolated(nonsending) func forwardUnsafe(_ request: AuthRequest, next: Next) async throws -> AuthResponse {
        let response = try await next(request)
        let safe: Set<HTTPRequest.Method> = [.options, .trace, .connect]
        if !safe.contains(request.head.method), (200..<400).contains(response.status.code),
           let key = CacheEntryKey(account: account, request: request.head) {
            cache.invalidate(key)
        }
        return response
    }

    /// Fields that make a request the caller's own conditional or partial request.
    private static let callerControlled: [HTTPField.Name] = [.ifNoneMatch, .ifModifiedSince, .ifMatch, .ifUnmodifiedSince, .ifRange, .range]

    /// Whether the request must pass through untouched.
    static func bypasses(_ head: HTTPRequest) -> Bool {
        callerControlled.contains { head.headerFields[$0] != nil }
    }
}
