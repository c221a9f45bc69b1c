// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// A step of the request pipeline: sees every request on its way out and its response on the way
/// back, and may change, repeat or answer it.
///
/// A client is a transport plus an ordered list of middlewares; the first is the outermost.
/// Each middleware's `next` calls the one after it, and the last one's calls the transport.
/// Redirects, retries, authentication, logging and every plug-in are middlewares like any other.
///
/// ## Implementing
/// Call `next` zero or more times (a retry calls it again; a cache may answer without it) and
/// return a response. Keep per-request state local: one middleware value serves concurrent
/// requests. ``ClosureMiddleware`` adapts a closure; ``ObservingMiddleware`` is for a step that
/// only looks.
///
/// ```swift
/// struct RequestID: Middleware {
///     nonisolated(nonsending) func intercept(_ request: AuthRequest, next: Next) async throws -> AuthResponse {
///         var request = request
///         request.head.headerFields[HTTPField.Name("X-Request-ID")!] = UUID().uuidString
///         return try await next(request)
///     }
/// }
/// ```
///
/// `intercept` is `nonisolated(nonsending)`: the whole pipeline runs on the caller's executor, so
/// passing a request from one middleware to the next is a plain call, not a hop to the global
/// executor and back. Declare your `intercept` `nonisolated(nonsending)` too; a middleware that
/// does not still works, at the cost of those two hops. The caller's executor may be the main
/// actor: a middleware with heavy work (hashing a large body, say) declares its `intercept`
/// `@concurrent` instead, so that work runs off the caller's executor.
public protocol Middleware: Sendable {
    /// The rest of the pipeline, ending at the transport.
    typealias Next = MiddlewareNext

    /// Handles one request.
    /// - Parameters:
    ///   - request: The request as the previous middleware passed it on.
    ///   - next: The rest of the pipeline, ending at the transport.
    nonisolated(nonsending) func intercept(_ request: AuthRequest, next: Next) async throws -> AuthResponse
}

extension Middleware {
    /// Handles one request with `next` given as a closure, for calling a middleware by hand.
    public nonisolated(nonsending) func intercept(
        _ request: AuthRequest,
        next: MiddlewareNext.Body
    ) async throws -> AuthResponse {
        try await withoutActuallyEscaping(next) { next in
            try await intercept(request, next: MiddlewareNext(next))
        }
    }
}

/// The rest of a pipeline, as a middleware receives it: call it like a function,
/// `try await next(request)`, zero or more times.
///
/// It is a place in a client's middlewares: calling it runs the middleware at that place, with
/// the place after it as that middleware's `next`; past the last middleware, the transport.
public struct MiddlewareNext: Sendable {
    /// A closure that stands for the rest of a pipeline.
    public typealias Body = nonisolated(nonsending) @Sendable (AuthRequest) async throws -> AuthResponse

    private let pipeline: Pipeline
    private let index: Int

    /// The place `index` of `pipeline` (0: its first middleware).
    init(_ pipeline: Pipeline, at index: Int) {
        self.pipeline = pipeline
        self.index = index
    }

    /// The rest of the pipeline as `body`.
    public init(_ body: @escaping Body) {
        self.init(Pipeline([], ending: ClosureTransport(body)), at: 0)
    }

    /// Sends `request` through the rest of the pipeline.
    public nonisolated(nonsending) func callAsFunction(_ request: AuthRequest) async throws -> AuthResponse {
        guard index < pipeline.middlewares.count else { return try await pipeline.transport.send(request) }
        return try await pipeline.middlewares[index].intercept(request, next: MiddlewareNext(pipeline, at: index + 1))
    }
}

/// Middlewares in front of a transport: what a client sends its requests through, starting at
/// `MiddlewareNext(pipeline, at: 0)`.
final class Pipeline: Sendable {
    /// Outermost first.
    let middlewares: [any Middleware]
    let transport: any Transport

    init(_ middlewares: [any Middleware], ending transport: any Transport) {
        self.middlewares = middlewares
        self.transport = transport
    }
}

/// A middleware built from a closure.
public struct ClosureMiddleware: Middleware {
    private let body: nonisolated(nonsending) @Sendable (AuthRequest, Next) async throws -> AuthResponse
    /// Creates a middleware that runs `body` for every request.
    public init(_ body: nonisolated(nonsending) @escaping @Sendable (AuthRequest, Next) async throws -> AuthResponse) {
        self.body = body
    }
    /// Runs the closure.
    public nonisolated(nonsending) func intercept(_ request: AuthRequest, next: Next) async throws -> AuthResponse {
        try await body(request, next)
    }
}
