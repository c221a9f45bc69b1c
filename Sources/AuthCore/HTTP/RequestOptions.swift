// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// Options a caller sets on one request; middlewares read them.
public struct RequestOptions: Sendable, Equatable {
    /// Allows the retry middleware to repeat a non-idempotent request (such as a POST).
    public var retryNonIdempotent: Bool
    /// A deadline for this request alone, overriding the timeout middleware's default and the
    /// transport's own limit (AuthHTTPClient's `responseHeadTimeout`, AuthURLSession's `timeout`).
    public var timeout: Duration?
    /// Header fields and query items of this request that carry secrets, besides
    /// ``SecretFieldNames/standard``: logs and mirrors redact them, and a hop to another origin drops
    /// them. Credentials that write under names of their own add them here when they authorize.
    public var secretFields: SecretFieldNames
    /// The largest response body this request reads, when it is smaller than the transport's own
    /// limit; past it the transport stops reading and fails with `AuthError` code
    /// `.responseTooLarge`. AuthKit's own reads (token endpoints, discovery, JWKS, sign-in) set
    /// it from their ``AnswerLimits``.
    public var maxResponseBytes: Int?
    /// Header fields of this request that may follow a redirect to another origin although
    /// they are not on ``RedirectMiddleware/crossOriginSafelist`` (canonical, lower-case names).
    /// Only for headers that hold nothing an origin may not see.
    public var headersForEveryOrigin: Set<String> = []
    /// Set by ``RedirectMiddleware`` on a hop from https to http: no credential goes on this
    /// request, nor on a later hop over plain http (see ``CredentialScope``), and no cookie of a
    /// jar (AuthCookie's `CookieMiddleware`).
    package var downgradedByRedirect = false

    /// Creates options; the defaults retry only idempotent methods and use the pipeline's timeout.
    public init(retryNonIdempotent: Bool = false, timeout: Duration? = nil, secretFields: SecretFieldNames = SecretFieldNames()) {
        self.retryNonIdempotent = retryNonIdempotent
        self.timeout = timeout
        self.secretFields = secretFields
    }
}
