// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// A middleware that only looks: it sees each request on its way out and each response or failure
/// on its way back, and changes, repeats and answers nothing (a log, a metric, a rate-limit
/// signal).
///
/// The `intercept` this protocol provides runs the hooks around `next`; a client calls it as it
/// calls any middleware's. Do not implement one of your own: a step that must wait, change or
/// answer is a plain ``Middleware``.
///
/// ```swift
/// struct StatusLog: ObservingMiddleware {
///     let logger: Logger
///     func didReceive(_ response: AuthResponse, for request: AuthRequest) {
///         logger.info("\(request.head.method) \(request.head.path ?? "/"): \(response.status.code)")
///     }
/// }
/// ```
///
/// The hooks see what the middleware would in `intercept`: the request as the middleware before
/// passed it on, and the response as the rest of the pipeline returned it; an observer inside a
/// retry sees every attempt. Keep them short and free of blocking work: they run on the request's
/// way, on the caller's executor.
public protocol ObservingMiddleware: Middleware {
    /// Called with each request before the rest of the pipeline gets it.
    func willSend(_ request: AuthRequest)
    /// Called with each response the rest of the pipeline returns for `request`.
    func didReceive(_ response: AuthResponse, for request: AuthRequest)
    /// Called with each error the rest of the pipeline throws for `request`.
    func didFail(_ error: any Error, for request: AuthRequest)
}

extension ObservingMiddleware {
    /// Does nothing.
    public func willSend(_ request: AuthRequest) {}
    /// Does nothing.
    public func didReceive(_ response: AuthResponse, for request: AuthRequest) {}
    /// Does nothing.
    public func didFail(_ error: any Error, for request: AuthRequest) {}

    /// Runs the hooks around `next`.
    public nonisolated(nonsending) func intercept(_ request: AuthRequest, next: Next) async throws -> AuthResponse {
        willSend(request)
        do {
            let response = try await next(request)
            didReceive(response, for: request)
            return response
        } catch {
            didFail(error, for: request)
            throw error
        }
    }
}
