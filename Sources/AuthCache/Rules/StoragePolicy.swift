// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Foundation
import HTTPTypes

/// Decides what is stored (RFC 9111 §3) and how a `304 Not Modified` updates a stored response
/// (§4.3.4).
enum StoragePolicy {
    /// Header fields that describe one connection and are never stored (RFC 9110 §7.6.1).
    static let hopByHop: [HTTPField.Name] = [.connection, .transferEncoding, .upgrade, .te, .trailer]
        + ["Keep-Alive", "Proxy-Connection"].compactMap { HTTPField.Name($0) }

    /// Fields a 304 may not change in the stored response: they describe the stored body.
    static let describeBody: Set<HTTPField.Name> = [.contentLength, .contentType, .contentEncoding, .contentRange, .transferEncoding]

    /// The entry to store for a response, or nil when it must not be stored.
    ///
    /// Not stored: a status outside `cacheableStatuses`; `no-store` on the request or response;
    /// a `Set-Cookie` field (the cookie belongs to this one exchange); `Vary: *` or a `Vary` that
    /// names an invalid field; and a response that would be useless to keep, with no freshness,
    /// no validator and no stale-if-error allowance.
    static func entry(
        for head: HTTPResponse, body: Data, request: HTTPRequest,
        requestTime: Date, responseTime: Date, configuration: ResponseCacheConfiguration
    ) -> CachedResponse? {
        guard configuration.cacheableStatuses.contains(head.status.code) else { return nil }
        let directives = CacheControl(head.headerFields)
        guard !directives.noStore, !CacheControl(request.headerFields).noStore else { return nil }
        guard head.headerFields[.setCookie] == nil else { return nil }
        guard let vary = varyValues(of: head.headerFields, request: request) else { return nil }

        var head = head
        for name in hopByHop + connectionNamed(head.headerFields) { head.headerFields[name] = nil }
        let lifetime = Freshness.lifetime(of: head.headerFields, directives: directives, responseTime: responseTime, defaultLifetime: configuration.defaultLifetime.seconds)
        let neverStale = directives.mustRevalidate || directives.noCache
        let staleIfError = neverStale ? 0 : directives.staleIfError.map(TimeInterval.init) ?? configuration.staleIfError.seconds
        let entry = CachedResponse(
            head: head, body: body, vary: vary, responseTime: responseTime,
            initialAge: Freshness.correctedInitialAge(of: head.headerFields, requestTime: requestTime, responseTime: responseTime),
            lifetime: lifetime, staleIfError: staleIfError,
            alwaysRevalidate: directives.noCache, neverServeStale: neverStale
        )
        let useful = (lifetime > 0 && !directives.noCache) || entry.etag != nil || entry.lastModified != nil || staleIfError > 0
        return useful ? entry : nil
    }

    /// The stored response updated by a `304 Not Modified`: its fields replace the stored ones
    /// (except those describing the body), and its freshness starts again.
    static func refreshed(_ stored: CachedResponse, with notModified: HTTPResponse) -> HTTPResponse {
        var head = stored.head
        var replaced: Set<HTTPField.Name> = []
        for field in notModified.headerFields where !describeBody.contains(field.name) && !hopByHop.contains(field.name) {
            if replaced.insert(field.name).inserted { head.headerFields[field.name] = nil }
            head.headerFields.append(field)
        }
        return head
    }

    /// The request field values a response's `Vary` selects; nil for `Vary: *` or a bad name.
    static func varyValues(of fields: HTTPFields, request: HTTPRequest) -> [CachedResponse.VaryValue]? {
        var values: [CachedResponse.VaryValue] = []
        for value in fields[values: .vary] {
            for part in value.split(separator: ",") {
                let name = part.trimmingSpaces()
                if name.isEmpty { continue }
                guard name != "*", let fieldName = HTTPField.Name(String(name)) else { return nil }
                values.append(.init(name: fieldName, value: request.headerFields[fieldName]))
            }
        }
        return values
    }

    /// The fields a `Connection` header names, which are hop-by-hop too.
    private static func connectionNamed(_ fields: HTTPFields) -> [HTTPField.Name] {
        fields[values: .connection].flatMap { $0.split(separator: ",") }.compactMap { HTTPField.Name(String($0.trimmingSpaces())) }
    }
}
