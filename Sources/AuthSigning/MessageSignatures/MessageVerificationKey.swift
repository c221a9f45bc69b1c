// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Crypto
public import CryptoExtras
import Foundation

/// A key that checks RFC 9421 signatures. Its `description` and `dump` name the algorithm only.
///
/// ```swift
/// let key = MessageVerificationKey.rsaPSSSHA512(try _RSA.Signing.PublicKey(pemRepresentation: publicKeyPEM))
/// ```
public struct MessageVerificationKey: Sendable, CustomStringConvertible, CustomReflectable {
    private enum Storage: Sendable {
        case hmac(SymmetricKey)
        case ed25519(Curve25519.Signing.PublicKey)
        case p256(P256.Signing.PublicKey)
        case p384(P384.Signing.PublicKey)
        case rsaPSS(_RSA.Signing.PublicKey)
        case rsaV15(_RSA.Signing.PublicKey)
    }

    private let storage: Storage

    /// An HMAC-SHA256 shared secret.
    public static func hmacSHA256(_ key: SymmetricKey) -> Self { Self(storage: .hmac(key)) }
    /// An Ed25519 public key.
    public static func ed25519(_ key: Curve25519.Signing.PublicKey) -> Self { Self(storage: .ed25519(key)) }
    /// A P-256 public key for `ecdsa-p256-sha256`.
    public static func ecdsaP256SHA256(_ key: P256.Signing.PublicKey) -> Self { Self(storage: .p256(key)) }
    /// A P-384 public key for `ecdsa-p384-sha384`.
    public static func ecdsaP384SHA384(_ key: P384.Signing.PublicKey) -> Self { Self(storage: .p384(key)) }
    /// An RSA public key for `rsa-pss-sha512`.
    public static func rsaPSSSHA512(_ key: _RSA.Signing.PublicKey) -> Self { Self(storage: .rsaPSS(key)) }
    /// An RSA public key for `rsa-v1_5-sha256`.
    public static func rsaV15SHA256(_ key: _RSA.Signing.PublicKey) -> Self { Self(storage: .rsaV15(key)) }

    /// The algorithm this key verifies.
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

    /// Whether `signature` is valid for `data` (HMAC compared in constant time).
    func isValid(_ signature: Data, for data: Data) -> Bool {
        switch storage {
        case .hmac(let key):
            return HMAC<SHA256>.isValidAuthenticationCode(signature, authenticating: data, using: key)
        case .ed25519(let key):
            return key.isValidSignature(signature, for: data)
        case .p256(let key):
            guard let parsed = try? P256.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
            return key.isValidSignature(parsed, for: data)
        case .p384(let key):
            guard let parsed = try? P384.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
            return key.isValidSignature(parsed, for: data)
        case .rsaPSS(let key):
            return key.isValidSignature(_RSA.Signing.RSASignature(rawRepresentation: signature), for: SHA512.hash(data: data), padding: .PSS)
        case .rsaV15(let key):
            return key.isValidSignature(_RSA.Signing.RSASignature(rawRepresentation: signature), for: SHA256.hash(data: data), padding: .insecurePKCS1v1_5)
        }
    }

    /// Names the algorithm, never the key.
    public var description: String { "MessageVerificationKey(\(algorithm.rawValue))" }

    /// Shows the algorithm only.
    public var customMirror: Mirror { Mirror(self, children: ["algorithm": algorithm], displayStyle: .struct) }
}
