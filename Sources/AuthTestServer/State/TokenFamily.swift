// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// All tokens descended from one login (or one guest session).
struct TokenFamily: Sendable {
    /// Family id, the `fam` claim of its access tokens.
    let id: String
    /// The subject of every token in the family.
    let subject: String
    /// The whole family is refused: access and refresh tokens.
    var revoked = false
    /// Only the family's refresh tokens are refused (server-side revocation).
    var refreshRevoked = false
}

/// A refresh token as stored: only its SHA-256 digest is the key, never the token.
struct RefreshTokenRecord: Sendable {
    /// The family the token belongs to.
    let familyID: String
    /// When it stops being accepted.
    let expiresAt: Date
    /// Set once the token has been exchanged; a later use is reuse.
    var rotated = false
}
