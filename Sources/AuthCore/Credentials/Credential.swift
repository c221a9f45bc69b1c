// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Foundation

/// A value that proves who the caller is and can put itself on a request.
///
/// Credentials are stored through a ``CredentialVault``; their ``kind`` and ``formatVersion``
/// go into the stored ``Envelope`` so that records can be recognised and upgraded.
/// `description` must never show a secret: hold secrets in ``Secret``.
///
/// ## Implementing
/// A `Codable` struct; `authorize(_:)` adds headers or query items; `expiresAt` is nil for
/// credentials that do not expire.
public protocol Credential: Codable, Sendable, Equatable, CustomStringConvertible {
    /// The record kind, such as `bearer`.
    static var kind: String { get }
    /// The version of the stored format; raise it when the encoding changes.
    static var formatVersion: Int { get }
    /// Puts the credential on the request.
    func authorize(_ request: inout AuthRequest)
    /// When the credential stops working, if known.
    var expiresAt: Date? { get }
    /// Until when the credential can be renewed, if known: a refresh token's own expiry. Past
    /// it, only a new sign-in helps; nil (the default) when the credential says nothing.
    var renewableUntil: Date? { get }
}

extension Credential {
    /// Nil: no known end to renewal.
    public var renewableUntil: Date? { nil }
    /// Version 1 unless a credential says otherwise.
    public static var formatVersion: Int { 1 }
}
