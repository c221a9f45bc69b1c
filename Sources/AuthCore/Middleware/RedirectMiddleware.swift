// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation
public import HTTPTypes

/// Follows 301, 302, 303, 307 and 308 redirects up to a hop limit.
///
/// 303 becomes GET (and 301/302 after a POST, as browsers do), dropping the body. On a hop to
/// another origin, or from https to http, only the headers of ``crossOriginSafelist`` (content
/// negotiation, body framing, caching, tracing, user agent) and those the request names in
/// ``RequestOptions/headersForEveryOrigin`` carry over: a header a caller added by hand
/// (`X-Api-Key`, `X-Service-Token`) stays with its origin even when nothing marked it secret,
/// which browsers do not promise. Query items of ``SecretFieldNames/standard``, of the names
/// given here, and of the names the request marks are stripped too. What runs inside this
/// middleware sees each hop and puts its secret on it only if the hop's origin is one of its own
/// (``CredentialScope``): together, no order of middlewares sends a credential to an origin its
/// configuration does not allow.
public struct RedirectMiddleware: Middleware {
    /// The most hops followed for one request (default 10).
    public let maxHops: Int
    /// Header and query item names removed on a cross-origin or downgrading hop, besides the names
    /// each request marks (``RequestOptions/secretFields``).
    public let secretFields: SecretFieldNames

    /// Creates the middleware.
    /// - Parameters:
    ///   - maxHops: The most redirects followed for one request.
    ///   - secretFields: Names to strip besides ``SecretFieldNames/standard`` (a container passes
    ///     its `container.markSecret(_:)` names).
    public init(maxHops: Int = 10, secretFields: SecretFieldNames = SecretFieldNames()) {
        self.maxHops = maxHops
        self.secretFields = SecretFieldNames.standard.union(secretFields)
    }

    /// Creates the middleware with extra header and query item names to strip.
    public init(maxHops: Int = 10, extraSensitiveHeaders: [HTTPField.Name], sensitiveQueryItems: Set<String> = []) {
        self.init(maxHops: maxHops, secretFields: SecretFieldNames(headers: extraSensitiveHeaders.map(\.canonicalName), queryItems: sensitiveQueryItems))
    }

    /// The header fields (canonical names) that follow a redirect to another origin: content
    /// negotiation, body framing, caching directives, tracing and the user agent. None of them
    /// holds a credential; every other field stays with the origin it was set for.
    public static let crossOriginSafelist: Set<String> = [
        "accept", "accept-language", "accept-encoding", "content-type", "content-length", "content-encoding",
        "content-language", "transfer-encoding", "cache-control", "pragma", "user-agent", "traceparent", "tracestate",
    ]

    /// Sends `request`, and each request its redirects lead to, up to ``maxHops``.
    public nonisolated(nonsending) func intercept(_ request: AuthRequest, next: Next) async throws -> AuthResponse {
        var current = request
        var hops = 0
        while true {
            let response = try await next(current)
            guard Self.isRedirect(response.status.code),
                  let location = response.head.headerFields[.location] else { return response }
            hops += 1
            current = try hop(from: current, status: response.status.code, location: location, hops: hops)
        }
    }

    static func isRedirect(_ status: Int) -> Bool {
        switch status {
        case 301, 302, 303, 307, 308: true
        default: false
        }
    }

    /// The request for redirect number `hops`, or the error past ``maxHops``.
    func hop(from request: AuthRequest, status: Int, location: String, hops: Int) throws -> AuthRequest {
        guard hops <= maxHops else {
            throw AuthError(code: .redirect, message: "more than \(maxHops) redirects", status: status)
        }
        guard let base = request.url, let target = URL(string: location, relativeTo: base)?.absoluteURL,
              let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw AuthError(code: .redirect, message: "the redirect Location is not an http(s) URL", status: status)
        }
        var next = try AuthRequest(method: request.head.method, url: target, headerFields: request.head.headerFields, body: request.body, options: request.options)
        let becomesGet = status == 303 ? request.head.method != .head : (status == 301 || status == 302) && request.head.method == .post
        if becomesGet {
            next.head.method = .get
            next.body = Data()
            next.head.headerFields[.contentType] = nil
            next.head.headerFields[.contentLength] = nil
        }
        let from = request.origin
        let to = next.origin
        let downgrades = from?.isSecure == true && to?.isSecure == false
        if downgrades { next.options.downgradedByRedirect = true }
        if from == nil || from != to || downgrades {
            let secrets = secretFields.union(request.options.secretFields)
            let carried = Self.crossOriginSafelist.union(request.options.headersForEveryOrigin)
            next.head.headerFields = HTTPFields(next.head.headerFields.filter {
                carried.contains($0.name.canonicalName) && !secrets.containsHeader($0.name.canonicalName)
            })
            next.head.path = QueryItems.removing(secrets.queryItemNames, from: next.head.path ?? "/")
            next.options.secretFields = SecretFieldNames()
        }
        return next
    }
}
