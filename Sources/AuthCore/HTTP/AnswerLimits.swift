// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// The bounds of an answer AuthKit reads for itself: a token endpoint's (and the revocation,
/// introspection and device authorization endpoints'), an authorization server's metadata and
/// key set, a sign-in's.
///
/// A renewal holds every request of its account while it waits, so such an answer may neither
/// take long nor be large. The defaults suit any real server; change them only for one that
/// needs it:
///
/// ```swift
/// var limits = AnswerLimits()
/// limits.deadline = .seconds(60)  // a token endpoint behind a slow gateway
/// let endpoint = OAuth2TokenEndpoint(url: tokenURL, clientID: "cli", transport: transport, limits: limits)  // AuthOAuth2
/// ```
public struct AnswerLimits: Sendable, Equatable {
    /// The whole exchange, from sending the request to the last byte of the body (default
    /// 30 s). A server that sends the right `Content-Length` and then trickles the body is cut
    /// here, not held by a gap-between-bytes timeout.
    public var deadline: Duration
    /// The largest body read (default 1 MiB): a token response, metadata or key set is a few
    /// kilobytes.
    public var maxBytes: Int
    /// The most keys a JSON Web Key Set may hold (default 100); a larger one is refused.
    public var maxKeys: Int
    /// The longest `Retry-After` of a `429` or `503` that is waited for before one more try
    /// (default 5 s, and never past ``deadline``); a longer one is surfaced on the error
    /// (``AuthError/retryAfter``).
    public var maxRetryAfterWait: Duration

    /// Creates limits; every default suits a real server.
    public init(deadline: Duration = .seconds(30), maxBytes: Int = 1 << 20, maxKeys: Int = 100, maxRetryAfterWait: Duration = .seconds(5)) {
        self.deadline = deadline
        self.maxBytes = maxBytes
        self.maxKeys = maxKeys
        self.maxRetryAfterWait = maxRetryAfterWait
    }
}

extension Transport {
    /// Sends `request` and reads its answer within `limits`: the whole exchange within
    /// ``AnswerLimits/deadline`` (the request's ``RequestOptions/timeout`` becomes that
    /// deadline), the body no larger than ``AnswerLimits/maxBytes`` (the transport stops reading
    /// there when it honours ``RequestOptions/maxResponseBytes``; the body is checked again
    /// for one that does not).
    /// - Parameters:
    ///   - request: The request.
    ///   - limits: The bounds.
    ///   - what: Names the answer in errors ("the token endpoint").
    /// - Throws: `AuthError` code `.timeout` or `.responseTooLarge` naming `what` and the bound;
    ///   the transport's other errors.
    public func send(_ request: AuthRequest, within limits: AnswerLimits, reading what: String) async throws -> AuthResponse {
        var request = request
        request.options.maxResponseBytes = min(request.options.maxResponseBytes ?? .max, limits.maxBytes)
        request.options.timeout = limits.deadline
        let response: AuthResponse
        do {
            response = try await TimeoutMiddleware(timeout: limits.deadline).intercept(request) { try await self.send($0) }
        } catch let error as AuthError where error.code == .timeout {
            throw AuthError(code: .timeout, message: "\(what) did not answer completely within \(limits.deadline)", status: error.status, underlying: error)
        } catch let error as AuthError where error.code == .responseTooLarge {
            throw AuthError(code: .responseTooLarge, message: "\(what)'s answer is larger than \(limits.maxBytes) bytes", underlying: error)
        }
        guard response.body.count <= limits.maxBytes else {
            throw AuthError(code: .responseTooLarge, message: "\(what)'s answer is larger than \(limits.maxBytes) bytes", status: response.status.code)
        }
        return response
    }
}
