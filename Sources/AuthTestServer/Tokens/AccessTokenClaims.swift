// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Foundation

/// The claims of an access token the server issues.
///
/// `iat` and `exp` are NumericDates (whole seconds since 1970, RFC 7519 §2); `fam` names the
/// token family (one login or guest session) so revoking the family refuses the token.
public struct AccessTokenClaims: Codable, Sendable, Equatable {
    /// Subject: a user id, or `guest:<device id>` for a guest.
    public var sub: String
    /// Issued at, seconds since 1970.
    public var iat: Int
    /// Expires at, seconds since 1970.
    public var exp: Int
    /// Unique token id.
    public var jti: String
    /// Token family id.
    public var fam: String

    /// Creates claims.
    /// - Parameters:
    ///   - subject: User id or `guest:<device id>`.
    ///   - issuedAt: Issue time (truncated to whole seconds).
    ///   - lifetime: Seconds until expiry.
    ///   - family: Token family id.
    ///   - id: Unique token id (random by default).
    public init(subject: String, issuedAt: Date, lifetime: Int, family: String, id: String = UUID().uuidString) {
        self.sub = subject
        self.iat = Int(issuedAt.timeIntervalSince1970.rounded(.down))
        self.exp = self.iat + lifetime
        self.jti = id
        self.fam = family
    }

    /// Whether the subject is a guest (`guest:<device id>`).
    public var isGuest: Bool { sub.hasPrefix(Self.guestPrefix) }

    /// The device id of a guest subject, else `nil`.
    public var deviceID: String? {
        isGuest ? String(sub.dropFirst(Self.guestPrefix.count)) : nil
    }

    /// Whether the token is expired at `now` (`exp` is at or before it).
    /// - Parameter now: The server clock's current time.
    public func isExpired(at now: Date) -> Bool {
        Double(exp) <= now.timeIntervalSince1970
    }

    /// The subject prefix that marks a guest.
    public static let guestPrefix = "guest:"
}
