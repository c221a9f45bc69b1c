// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// The shared secret of an HOTP or TOTP generator: raw key bytes, never shown.
///
/// Its ``description``, ``debugDescription`` and mirror (what `dump()` prints) give only the
/// length. Read the bytes on purpose with ``bytes`` or ``base32EncodedString(padding:)``
/// (for an enrollment QR code).
///
/// ```swift
/// let secret = try OTPSecret.generate()                 // 20 random bytes
/// let same = try OTPSecret(base32: secret.base32EncodedString())
/// ```
public struct OTPSecret: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The smallest length ``generate(byteCount:)`` accepts: 20 bytes, 160 bits (RFC 4226 §4).
    public static let minimumGeneratedByteCount = 20

    /// The key bytes.
    public let bytes: [UInt8]

    /// Wraps existing key bytes.
    ///
    /// - Parameter bytes: The key; RFC 4226 asks for at least 16 bytes, 20 recommended.
    /// - Throws: ``MFAError`` `.invalidSecret` when `bytes` is empty.
    public init(bytes: [UInt8]) throws(MFAError) {
        guard !bytes.isEmpty else {
            throw MFAError(code: .invalidSecret, message: "an OTP secret must not be empty")
        }
        self.bytes = bytes
    }

    /// Decodes a base32 secret as authenticator apps show it (any case, padding optional,
    /// spaces and hyphens ignored).
    ///
    /// - Parameter base32: The encoded secret.
    /// - Throws: ``MFAError`` `.invalidCharacter`, `.invalidLength` or `.invalidPadding` when
    ///   the text is not base32, `.invalidSecret` when it decodes to nothing.
    public init(base32: String) throws(MFAError) {
        try self.init(bytes: Base32.decode(base32))
    }

    /// A new secret from the system's cryptographically secure random number generator.
    ///
    /// - Parameter byteCount: The length, at least ``minimumGeneratedByteCount`` (default 20).
    /// - Throws: ``MFAError`` `.invalidSecret` when `byteCount` is below 20.
    public static func generate(byteCount: Int = 20) throws(MFAError) -> OTPSecret {
        guard byteCount >= minimumGeneratedByteCount else {
            throw MFAError(code: .invalidSecret, message: "a generated secret has at least \(minimumGeneratedByteCount) bytes (160 bits), not \(byteCount)")
        }
        return try OTPSecret(bytes: SecureRandom.bytes(count: byteCount))
    }

    /// The number of key bytes.
    public var byteCount: Int { bytes.count }

    /// The secret in base32, for an `otpauth://` URI or manual entry. Reveals the secret.
    ///
    /// - Parameter padding: Whether to append `=` padding (authenticator URIs omit it).
    public func base32EncodedString(padding: Bool = false) -> String {
        Base32.encode(bytes, padding: padding)
    }

    /// Compares in constant time for secrets of equal length.
    public static func == (lhs: OTPSecret, rhs: OTPSecret) -> Bool {
        ConstantTime.equals(lhs.bytes, rhs.bytes)
    }

    /// Hashes the length only, so that the hash of a secret reveals nothing about it.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(bytes.count)
    }

    /// `OTPSecret(20 bytes, redacted)`.
    public var description: String { "OTPSecret(\(bytes.count) bytes, redacted)" }
    /// The same as ``description``.
    public var debugDescription: String { description }
    /// A mirror with the length only.
    public var customMirror: Mirror {
        Mirror(self, children: ["byteCount": bytes.count, "bytes": Redacted.marker], displayStyle: .struct)
    }
}
