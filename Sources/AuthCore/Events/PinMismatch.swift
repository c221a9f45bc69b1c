// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// A server whose key is none of its host's pins (see ``CertificatePinning``).
public struct PinMismatch: Sendable, Equatable, CustomStringConvertible {
    /// The pinned host, or the pattern `*.domain` whose pins applied (a connection's pins are
    /// checked before it is given a request, so the subdomain is not known there).
    public var host: String
    /// The pin of the key the server presented (a public value: the digest of a public key).
    public var presentedPin: String
    /// Whether the connection was refused (``CertificatePinning/Mode/enforce``) or used
    /// (``CertificatePinning/Mode/reportOnly``).
    public var enforced: Bool

    /// Creates the record.
    public init(host: String, presentedPin: String, enforced: Bool) {
        self.host = host
        self.presentedPin = presentedPin
        self.enforced = enforced
    }

    /// A one-line summary.
    public var description: String {
        "\(host) presented key sha256/\(presentedPin), none of its pins (\(enforced ? "refused" : "report only: used"))"
    }
}
