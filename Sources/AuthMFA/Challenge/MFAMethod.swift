// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// A way to answer an MFA challenge, such as `totp` or `recovery_code`.
///
/// A struct rather than an enum so that servers' other methods (SMS, e-mail, WebAuthn) can be
/// carried without a library change. Encoded as its raw string.
public struct MFAMethod: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The wire name, such as `totp`.
    public let rawValue: String

    /// Wraps a wire name.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A time-based one-time password from an authenticator app.
    public static let totp = MFAMethod(rawValue: "totp")
    /// A counter-based one-time password.
    public static let hotp = MFAMethod(rawValue: "hotp")
    /// A single-use recovery code.
    public static let recoveryCode = MFAMethod(rawValue: "recovery_code")

    /// Decodes from a single string.
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    /// Encodes as a single string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// The wire name.
    public var description: String { rawValue }
}
