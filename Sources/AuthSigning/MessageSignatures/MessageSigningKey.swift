// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Crypto
public import CryptoExtras
import Foundation

/// A key that makes RFC 9421 signatures. Its `description` and `dump` name the algorithm only.
///
/// ```swift
/// let key = MessageSigningKey.ed25519(try Curve25519.Signing.PrivateKey(rawRepresentation: raw))
/// ```
public struct MessageSigningKey: Sendable, CustomStringConvertible, CustomReflectable {
    private enum Storage: Sendable {
        /// The secret, and its keyed hash states (RFC 2104) so that a signature costs only its
        /// message's blocks.
        case hmac(SymmetricKey, KeyedSHA256)
        case ed25519(Curve25519.Signing.PrivateKey)
        case p256(P256.Signing.PrivateKey)
        case p384(P384.Signing.PrivateKey)
        case rsaPSS(_RSA.Signing.PrivateKey)
        case rsaV15(_RSA.Signing.PrivateKey)
    }

    private let storage: Storage

    /// An HMAC-SHA256 shared secret.
    public static func hmacSHA256(_ key: SymmetricKey) -> Self { Self(storage: .hmac(key, KeyedSHA256(key: key))) }
    /// An Ed25519 private key.
    public static func ed25519(_ key: Curve25519.Signing.PrivateKey) -> Self { Self(storage: .ed25519(key)) }
    /// A P-256 private key for `ecdsa-p256-sha256`.
    public static func ecdsaP256SHA256(_ key: P256.Signing.PrivateKey) -> Self { Self(storage: .p256(key)) }
    /// A P-384 private key for `ecdsa-p384-sha384`.
    public static func ecdsaP384SHA384(_ key: P384.Signing.PrivateKey) -> Self { Self(storage: .p384(key)) }
    /// An RSA private key (2048 bits or more) for `rsa-pss-sha512`.
    public static func rsaPSSSHA512(_ key: _RSA.Signing.PrivateKey) -> Self { Self(storage: .rsaPSS(key)) }
    /// An RSA private key (2048 bits or more) for `rsa-v1_5-sha256`.
    public static func rsaV15SHA256(_ key: _RSA.Signing.PrivateKey) -> Self { Self(storage: .rsaV15(key)) }

    /// The algorithm this key signs with.
    public var algorithm: MessageSignatureAlgorithm {
        switch storage {
        case .hmac: .hmacSHA256
        case .ed25519: .ed25519
        case .p256: .ecdsaP256SHA256
        case .p384: .ecdsaP384SHA384
        case .rsaPSS: .rsaPSSSHA512
        case .rsaV15: .rsaV15SHA256
        }
    }

    /// The matching verification key (the same secret for HMAC, the public key otherwise).
    public var verificationKey: MessageVerificationKey {
        switch storage {
        case .hmac(let key, _): .hmacSHA256(key)
        case .ed25519(let key): .ed25519(key.publicKey)
        case .p256(let key): .ecdsaP256SHA256(key.publicKey)
        case .p384(let key): .ecdsaP384SHA384(key.publicKey)
        case .rsaPSS(let key): .rsaPSSSHA512(key.publicKey)
        case .rsaV15(let key): .rsaV15SHA256(key.publicKey)
        }
    }

    /// Signs `data`: the HMAC, the Ed25519 signature, the ECDSA signature as raw `r || s`, or the
    /// RSA signature.
    func sign(_ data: Data) throws -> Data {
        switch storage {
        case .hmac(_, let keyed): Data(data.withUnsafeBytes { keyed.authenticationCode(for: $0) })
        case .ed25519(let key): try key.signature(for: data)
        case .p256(let key): try key.signature(for: data).rawRepresentation
        case .p384(let key): try key.signature(for: data).rawRepresentation
        case .rsaPSS(let key): try key.signature(for: SHA512.hash(data: data), padding: .PSS).rawRepresentation
        case .rsaV15(let key): try key.signature(for: SHA256.hash(data: data), padding: .insecurePKCS1v1_5).rawRepresentation
        }
    }

    /// Names the algorithm, never the key.
    public var description: String { "MessageSigningKey(\(algorithm.rawValue))" }

    /// Shows the algorithm only.
    public var customMirror: Mirror { Mirror(self, children: ["algorithm": algorithm], displayStyle: .struct) }
}
