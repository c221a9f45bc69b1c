// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Foundation
import HTTPTypes

extension CacheMiddleware {
    /// The statuses for which a stale entry may stand in (RFC 5861 §4).
    static let serverFailures: Set<Int> = [500, 502, 503, 504]

    /// Asks the server whether a stale (or `no-cache`) entry is still good.
    ///
    /// With a validator the request becomes conditional: a `304` refreshes the entry and the
    /// caller gets the stored body. A full response replaces the entry. A server failure or a
    /// failure to reach the server (`AuthError` code `.transport` or `.timeout`) is answered with
    /// the entry when its stale-if-error window allows; any other error is thrown: an account
    /// signed out, refused by the app's access gate or needing a new sign-in gets no stored answer.
    nonisolated(nonsending) func revalidate(
        _ request: AuthRequest, entry: CachedResponse, key: CacheEntryKey, ticket: ResponseCache.Ticket,
        next: Next
    ) async throws -> AuthResponse {
        var conditional = request
        if let etag = entry.etag { conditional.head.headerFields[.ifNoneMatch] = etag }
        if let lastModified = entry.lastModified { conditional.head.headerFields[.ifModifiedSince] = lastModified }
        let isConditional = entry.etag != nil || entry.lastModified != nil

        let requestTime = clock.now()
        let response: AuthResponse
        do {
            response = try await next(conditional)
        } catch {
            if Self.isOriginFailure(error), let stale = serveStale(entry, key: key, ticket: ticket) { return answer(stale, .staleServed(failureStatus: nil)) }
            cache.count(.miss)
            throw error
        }

        if isConditional, response.status == .notModified {
            let head = StoragePolicy.refreshed(entry, with: response.head)
            let responseTime = clock.now()
            let refreshed = StoragePolicy.entry(
                for: head, body: entry.body, request: request.head,
                requestTime: requestTime, responseTime: responseTime, configuration: cache.configuration
            )
            guard let refreshed else {
                cache.remove(key)
                return answer(AuthResponse(head: head, body: entry.body), .revalidated)
            }
            cache.store(refreshed, for: key, ticket: ticket)
            return answer(refreshed.response(age: refreshed.age(at: responseTime)), .revalidated)
        }
        if Self.serverFailures.contains(response.status.code) {
            // The entry stays: the failure says nothing about whether it is still good.
            if let stale = serveStale(entry, key: key, ticket: ticket) { return answer(stale, .staleServed(failureStatus: response.status.code)) }
            return answer(response, .forwardedStale(status: response.status.code))
        }
        keep(response, for: request, key: key, requestTime: requestTime, ticket: ticket)
        return answer(response, .forwardedStale(status: response.status.code))
    }

    /// Whether `error` says the server could not be reached or did not answer in time: what
    /// `stale-if-error` is for (RFC 5861). Not a cancellation, nor an error of the account.
    private static func isOriginFailure(_ error: any Error) -> Bool {
        guard let error = error as? AuthError else { return false }
        return error.code == .transport || error.code == .timeout
    }

    /// The entry as the answer to a failed server, when its stale-if-error window allows and
    /// the account's entries were not purged or invalidated since `ticket` was taken (a write
    /// that succeeded meanwhile, a sign-out: the entry no longer stands for the resource).
    private func serveStale(_ entry: CachedResponse, key: CacheEntryKey, ticket: ResponseCache.Ticket) -> AuthResponse? {
        guard cache.isCurrent(ticket, account: key.account) else { return nil }
        let age = entry.age(at: clock.now())
        guard entry.canServeOnError(age: age) else { return nil }
        return entry.response(age: age)
    }
}
