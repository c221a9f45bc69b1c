// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Foundation

/// The underlying error of the `AuthError.reauthenticationRequired` thrown instead of a renewal
/// whose refresh token has expired (``BearerTokenSet/refreshExpiresAt``): the token endpoint is
/// not called, since it could only refuse.
///
/// ```swift
/// do {
///     _ = try await aliceClient.send(.get, baseURL)
/// } catch let error as AuthError {
///     if let expired = error.underlying as? RefreshTokenExpired { print("signed in until \(expired.expiredAt)") }
/// }
/// ```
public struct RefreshTokenExpired: Error, Sendable, Equatable, CustomStringConvertible {
    /// When the refresh token expired.
    public let expiredAt: Date

    /// Creates the error.
    public init(expiredAt: Date) { self.expiredAt = expiredAt }

    /// `the refresh token expired at <date>`.
    public var description: String { "the refresh token expired at \(expiredAt)" }

    /// Throws when `tokens` has a refresh token whose known expiry is not after `now`.
    /// - Throws: `AuthError` `.reauthenticationRequired` with this error underlying.
    public static func check(_ tokens: BearerTokenSet, now: Date) throws {
        guard let end = tokens.renewableUntil, end <= now else { return }
        let expired = RefreshTokenExpired(expiredAt: end)
        throw AuthError.reauthenticationRequired(nil, reason: "\(expired); sign in again", underlying: expired)
    }
}
