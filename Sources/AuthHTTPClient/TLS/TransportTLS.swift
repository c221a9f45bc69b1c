// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore

/// What ``HTTPClientTransport`` adds to its connections' TLS: public-key pins, and client
/// certificates per origin (mutual TLS).
///
/// - Pinned hosts are served by an `HTTPClient` of their own, whose connections are checked
///   against the host's pins once the TLS handshake (with the standard chain and host name
///   validation) has succeeded, before any request is written on them.
/// - A request to an origin with an identity goes over connections that present it (a TLS
///   configuration of its own per request, so AsyncHTTPClient keeps those connections apart).
/// - A request carrying a certificate-bound bearer token (RFC 8705 `cnf.x5t#S256`) is sent only to
///   an origin whose identity is that certificate; otherwise it fails with `AuthError`
///   code `.certificateBindingUnmet` and nothing is sent. This holds with no `TransportTLS` at all.
public struct TransportTLS: Sendable {
    /// The pins; nil for none.
    public let pinning: CertificatePinning?
    /// The client identity presented to each origin (`https` only).
    public let clientIdentities: [Origin: TLSClientIdentity]

    /// Creates the settings.
    /// - Parameters:
    ///   - pinning: The pins; nil for none.
    ///   - clientIdentities: The identity to present to each `https` origin.
    /// - Throws: `AuthError` code `.misconfigured` when an identity is
    ///   given for an origin that is not `https`.
    public init(pinning: CertificatePinning? = nil, clientIdentities: [Origin: TLSClientIdentity] = [:]) throws(AuthError) {
        if let plain = clientIdentities.keys.first(where: { $0.scheme != "https" }) {
            throw AuthError(code: .misconfigured, message: "a client certificate is presented only over TLS: \(plain) is not https")
        }
        self.pinning = pinning
        self.clientIdentities = clientIdentities
    }
}
