// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Synchronization

/// The origins one credential-bearing part of a pipeline may put its secret on, and who hears
/// when it holds the secret back.
///
/// Everything in AuthKit that writes a secret onto a request asks its scope first, on the first
/// request and on every redirect hop and retry that passes through it: the authentication
/// middleware (bearer, API key, Basic, cookie session, guest), ``HeadersMiddleware`` for values
/// under secret names, and `SigningMiddleware` (HMAC, SigV4 and its session token, RFC 9421).
/// For any other origin it writes nothing and reports ``AuthEvent/credentialWithheld(_:)``.
///
/// Together with ``RedirectMiddleware``, which drops every secret field on a hop to another
/// origin, this holds whatever the order of the middlewares: a part placed inside the redirect
/// middleware sees each hop and declines the foreign ones; a part placed outside it wrote the
/// first request only, and the hop drops what it wrote (standard names, and the names it marked
/// with ``AuthRequest/markSecret(header:)``).
///
/// A middleware of your own that writes a secret does the same:
///
/// ```swift
/// struct TenantKey: Middleware {
///     let key: String
///     let scope: CredentialScope
///     nonisolated(nonsending) func intercept(_ request: AuthRequest, next: Next) async throws -> AuthResponse {
///         guard scope.admits(request, credential: "header x-tenant-key") else { return try await next(request) }
///         var request = request
///         request.head.headerFields[HTTPField.Name("X-Tenant-Key")!] = key
///         request.markSecret(header: "x-tenant-key")
///         return try await next(request)
///     }
/// }
/// ```
public struct CredentialScope: Sendable {
    /// The origins the secret may go to.
    public let allowedHosts: AllowedHosts
    /// The account the secret belongs to, for the event.
    public let account: AccountKey?
    /// Where ``AuthEvent/credentialWithheld(_:)`` goes; nil reports nothing.
    public let events: AuthEvents?
    private let reported = Reported()

    /// Creates a scope.
    /// - Parameters:
    ///   - allowedHosts: The origins the secret may go to.
    ///   - account: The account the secret belongs to, named in the event.
    ///   - events: Where to report a withheld secret.
    public init(allowedHosts: AllowedHosts, account: AccountKey? = nil, events: AuthEvents? = nil) {
        self.allowedHosts = allowedHosts
        self.account = account
        self.events = events
    }

    /// Whether the secret may go on `request`; when not, reports that it was withheld, once per
    /// origin and credential (so that a client calling another host all day does not flood the
    /// events that matter).
    ///
    /// A request that a redirect moved from https to plain http is refused whatever its host:
    /// ``AllowedHosts`` lets loopback hosts (and, with `allowInsecure`, any host) use http, but
    /// never as the continuation of an https request.
    /// - Parameters:
    ///   - request: The request about to be sent.
    ///   - credential: What would have been written, named without its value ("SigV4 signature",
    ///     "header x-service-token"); built only when the request is refused.
    public func admits(_ request: AuthRequest, credential: @autoclosure () -> String) -> Bool {
        // One reading of the origin serves every part of the decision.
        let origin = request.origin
        if let origin, allowedHosts.allows(origin), !request.options.downgradedByRedirect || origin.isSecure { return true }
        if let events {
            let withheld = CredentialWithheld(account: account, origin: origin?.description ?? "an unreadable origin", credential: credential())
            if reported.first(withheld) { events.emit(.credentialWithheld(withheld)) }
        }
        return false
    }

    /// The withheld credentials already reported, at most ``limit`` of them.
    private final class Reported: Sendable {
        static let limit = 256
        private let seen = Mutex<Set<String>>([])

        /// Whether `withheld` is reported for the first time (always true past the limit's
        /// reach would flood, so past it nothing more is reported).
        func first(_ withheld: CredentialWithheld) -> Bool {
            seen.withLock { seen in
                guard seen.count < Self.limit else { return false }
                return seen.insert("\(withheld.origin) \(withheld.credential)").inserted
            }
        }
    }
}
