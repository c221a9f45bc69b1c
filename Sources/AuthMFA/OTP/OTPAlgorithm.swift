// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// The HMAC hash function an OTP generator uses (RFC 4226 §5, RFC 6238 §1.2).
///
/// Authenticator apps know these three; SHA-1 is the default everywhere and the only one some
/// apps support.
///
/// ```swift
/// let totp = try TOTP(secret: secret, algorithm: .sha256, digits: 8)
/// ```
public enum OTPAlgorithm: String, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
    /// HMAC-SHA-1, the RFC 4226 algorithm and the default.
    case sha1 = "SHA1"
    /// HMAC-SHA-256 (RFC 6238).
    case sha256 = "SHA256"
    /// HMAC-SHA-512 (RFC 6238).
    case sha512 = "SHA512"

    /// Parses the `algorithm` value of an `otpauth://` URI, ignoring case (`SHA1`, `sha256`, …).
    ///
    /// - Parameter uriName: The text, such as `SHA512`.
    /// - Returns: The algorithm, or nil when the name is not one of the three.
    public init?(uriName: String) {
        switch uriName.uppercased() {
        case "SHA1": self = .sha1
        case "SHA256": self = .sha256
        case "SHA512": self = .sha512
        default: return nil
        }
    }

    /// The name used in `otpauth://` URIs: `SHA1`, `SHA256` or `SHA512`.
    public var uriName: String { rawValue }

    /// The same as ``uriName``.
    public var description: String { rawValue }
}
