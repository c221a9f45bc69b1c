// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Foundation

/// A server's request for a second factor after a password was accepted.
///
/// The ``id`` ties the answer to the pending sign-in, so it is treated as a secret:
/// ``description`` and `dump()` do not show it.
///
/// ```swift
/// let challenge = MFAChallenge(id: challengeID, methods: [.totp, .recoveryCode],
///                              expiresAt: Date().addingTimeInterval(300))
/// let code = try await provider.code(for: challenge, method: .totp)
/// ```
public struct MFAChallenge: Sendable, Hashable, Codable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The server's identifier for the pending sign-in.
    public var id: String
    /// The methods the server accepts, in its order of preference.
    public var methods: [MFAMethod]
    /// When the challenge stops being answerable.
    public var expiresAt: Date

    /// Creates a challenge.
    public init(id: String, methods: [MFAMethod], expiresAt: Date) {
        self.id = id
        self.methods = methods
        self.expiresAt = expiresAt
    }

    /// Whether the challenge has expired at `date`.
    public func isExpired(at date: Date) -> Bool {
        date >= expiresAt
    }

    /// The first of the server's methods that is also in `supported`.
    ///
    /// - Throws: ``MFAError`` `.noMethodAvailable` when there is none.
    public func preferredMethod(among supported: [MFAMethod]) throws(MFAError) -> MFAMethod {
        guard let method = methods.first(where: supported.contains) else {
            throw MFAError.noMethodAvailable(offered: methods)
        }
        return method
    }

    /// Methods and expiry; the id is redacted.
    public var description: String {
        "MFAChallenge(id: \(Redacted.marker), methods: \(methods.map(\.rawValue)), expiresAt: \(expiresAt))"
    }
    /// The same as ``description``.
    public var debugDescription: String { description }
    /// A mirror without the id.
    public var customMirror: Mirror {
        Mirror(self, children: ["id": Redacted.marker, "methods": methods.map(\.rawValue), "expiresAt": expiresAt], displayStyle: .struct)
    }
}
