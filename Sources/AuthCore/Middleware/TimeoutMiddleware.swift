// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// Ends a request that takes longer than its time limit with `AuthError` code `.timeout`.
///
/// The limit is the request's `options.timeout` or this middleware's default. The rest of the
/// pipeline is cancelled when the limit passes; transports stop on cancellation. The request goes
/// on with the limit as its `options.timeout`, so a transport's own shorter limit (AuthHTTPClient
/// waits 30 seconds for a response's head, AuthURLSession 60 for the whole response) does not
/// cut it short.
public struct TimeoutMiddleware: Middleware {
    /// The default limit.
    public let timeout: Duration
    private let clock: any AuthClock

    /// Creates the middleware.
    public init(timeout: Duration = .seconds(30), clock: any AuthClock = SystemClock()) {
        self.timeout = timeout
        self.clock = clock
    }

    /// Races the request against the limit.
    public nonisolated(nonsending) func intercept(_ request: AuthRequest, next: Next) async throws -> AuthResponse {
        let limit = request.options.timeout ?? timeout
        var request = request
        if request.options.timeout == nil { request.options.timeout = limit }
        let clock = self.clock
        return try await withThrowingTaskGroup(of: AuthResponse?.self) { [request] group in
            group.addTask { try await next(request) }
            group.addTask {
                try await clock.sleep(for: limit)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let response = first else {
                throw AuthError(code: .timeout, message: "the request did not finish within \(limit)")
            }
            return response
        }
    }
}
