// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// The RFC 9421 algorithms (§3.3) this module signs and verifies with.
public enum MessageSignatureAlgorithm: String, Sendable, Hashable, CaseIterable {
    /// RSASSA-PSS using SHA-512, MGF1 with SHA-512 and a 64-byte salt (§3.3.1).
    case rsaPSSSHA512 = "rsa-pss-sha512"
    /// RSASSA-PKCS1-v1_5 using SHA-256 (§3.3.2).
    case rsaV15SHA256 = "rsa-v1_5-sha256"
    /// HMAC using SHA-256 (§3.3.3).
    case hmacSHA256 = "hmac-sha256"
    /// ECDSA using P-256 and SHA-256, signature as raw 64-byte `r || s` (§3.3.4).
    case ecdsaP256SHA256 = "ecdsa-p256-sha256"
    /// ECDSA using P-384 and SHA-384, signature as raw 96-byte `r || s` (§3.3.5).
    case ecdsaP384SHA384 = "ecdsa-p384-sha384"
    /// EdDSA using Curve25519 (§3.3.6).
    case ed25519 = "ed25519"
}
