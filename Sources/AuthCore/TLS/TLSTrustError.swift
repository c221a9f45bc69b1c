// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// A failure of the trust a TLS connection must establish: a pinned key that the server did not
/// present, a pin configuration or client identity that cannot be used, or a certificate-bound
/// token that would go over a connection without its certificate.
///
/// None of these is a `AuthError` of code `.transport`, so ``RetryMiddleware`` never repeats
/// the request on another connection, and no transport falls back to an unpinned one. Its text
/// names the host and what to change; it holds no key, token or certificate body.
public struct TLSTrustError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure; see the static members.
    public typealias Code = ErrorCode<TLSTrustError>

    /// What failed.
    public let code: Code
    /// What failed and what to do, without secrets.
    public let message: String
    /// The host the connection was for, when there was one.
    public let host: String?

    /// Creates an error.
    /// - Parameters:
    ///   - code: What failed.
    ///   - message: A description without secrets.
    ///   - host: The host the connection was for.
    public init(code: Code, message: String, host: String? = nil) {
        self.code = code
        self.message = message
        self.host = host
    }

    /// The code and the message.
    public var description: String { "TLSTrustError.\(code): \(message)" }
}

extension ErrorCode where Domain == TLSTrustError {
    /// The server's certificate chain was valid, but its key is none of the host's pins, and the
    /// pins are enforced: the connection was closed before a request was written on it.
    public static var pinMismatch: Self { Self("pinMismatch") }
    /// A pin configuration cannot be used: a pin that is not a base64 SHA-256 digest, a host with
    /// fewer than two distinct pins (one of them the backup), or a malformed host pattern.
    public static var invalidPinConfiguration: Self { Self("invalidPinConfiguration") }
    /// The transport cannot honour what was asked of it on this platform (pinning or a client
    /// certificate over FoundationNetworking): refused, never silently ignored.
    public static var unsupported: Self { Self("unsupported") }
    /// A client identity (certificate chain and private key) cannot be read, or its key does not
    /// belong to its certificate.
    public static var invalidClientIdentity: Self { Self("invalidClientIdentity") }
    /// A certificate-bound token (RFC 8705 `cnf.x5t#S256`) was about to be sent over a connection
    /// that does not present that certificate: nothing was sent.
    public static var certificateBindingUnmet: Self { Self("certificateBindingUnmet") }
}
