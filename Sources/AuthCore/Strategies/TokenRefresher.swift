// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// Turns a token set into a renewed one; the renewal step of ``BearerStrategy``.
///
/// ## Implementing
/// Call the token endpoint with `tokens.refreshToken`. It may be nil: a refresher that renews by
/// running its grant again (client credentials) needs none, and one that does need it throws
/// `AuthError.reauthenticationRequired` without it (never force-unwrap it). Throw
/// `.reauthenticationRequired` when the server rejects the refresh token for good
/// (`invalid_grant`), `.misconfigured` when it rejects the client, and any other error for a
/// failure that may pass. ``ClosureTokenRefresher`` adapts a closure and
/// AuthOAuth2's `OAuth2RefreshTokenRefresher` speaks RFC 6749 §6.
public protocol TokenRefresher: Sendable {
    /// Returns a renewed token set.
    func refresh(_ tokens: BearerTokenSet) async throws -> BearerTokenSet
}

/// A ``TokenRefresher`` built from a closure.
public struct ClosureTokenRefresher: TokenRefresher {
    private let body: @Sendable (BearerTokenSet) async throws -> BearerTokenSet
    /// Creates a refresher that calls `body`.
    public init(_ body: @escaping @Sendable (BearerTokenSet) async throws -> BearerTokenSet) {
        self.body = body
    }
    /// Calls the closure.
    public func refresh(_ tokens: BearerTokenSet) async throws -> BearerTokenSet {
        try await body(tokens)
    }
}
