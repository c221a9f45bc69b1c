// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// Sends one request and returns the response.
///
/// A transport never follows redirects and never retries: the redirect and retry middlewares do,
/// so that the policy is the same on every transport.
///
/// ## Implementing
/// Connect to ``AuthRequest/urlForTransport()`` — never to the head's authority re-read by
/// another URL parser, so that the host a credential was checked for is the host it goes to.
/// Send the head's method, its header fields (over HTTP/1.1,
/// ``AuthRequest/headerFieldsForHTTP1``, which joins `Cookie` fields into one) and the body as
/// they are, and return the status, header fields and whole body. Report connection failures
/// as `AuthError.transport(_:)`. A closure adapter is available as ``ClosureTransport``. `send`
/// is `nonisolated(nonsending)`, like ``Middleware/intercept(_:next:)``: it starts on the
/// caller's executor. A transport that does heavy work of its own (copying large bodies, say)
/// keeps it off an actor's executor: it implements `send` `@concurrent`, or, as
/// `HTTPClientTransport` does, hands a caller isolated to an actor (`#isolation` is not nil) to
/// a `@concurrent` function and serves a caller on no actor where it is, without a switch of
/// executor.
public protocol Transport: Sendable {
    /// Sends the request and returns the response.
    nonisolated(nonsending) func send(_ request: AuthRequest) async throws -> AuthResponse
}

/// A transport built from a closure; handy in unit tests of pure logic and for adapters.
public struct ClosureTransport: Transport {
    private let body: MiddlewareNext.Body
    /// Creates a transport that answers every request with `body`.
    public init(_ body: @escaping MiddlewareNext.Body) {
        self.body = body
    }
    /// Calls the closure.
    public nonisolated(nonsending) func send(_ request: AuthRequest) async throws -> AuthResponse {
        try await body(request)
    }
}
