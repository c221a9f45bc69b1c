public import Crypto
import Foundation

/// The RFC 9421 algorithms this module signs and verifies with.
public enum MessageSignatureAlgorithm: String, Sendable, Hashable, CaseIterable {
    /// HMAC using SHA-256 (§3.3.3).
    case hmacSHA256 = "hmac-sha256"
    /// EdDSA using Curve25519 (§3.3.5).
    case ed25519 = "ed25519"
    /// ECDSA using P-256 and SHA-256, signature as raw 64-byte `r || s` (§3.3.4).
    case ecdsaP256SHA256 = "ecdsa-p256-sha256"
}

/// A key that makes RFC 9421 signatures. Its `description` and `dump` name the algorithm only.
///
/// ```swift
/// let key = MessageSigningKey.ed25519(try Curve25519.Signing.PrivateKey(rawRepresentation: raw))
/// ```
public struct MessageSigningKey: Sendable, CustomStringConvertible, CustomReflectable {
    private enum Storage: Sendable {
        case hmac(SymmetricKey)
        case ed25519(Curve25519.Signing.PrivateKey)
        case p256(P256.Signing.PrivateKey)
    }

    private let storage: Storage

    /// An HMAC-SHA256 shared secret.
    public static func hmacSHA256(_ key: SymmetricKey) -> Self { Self(storage: .hmac(key)) }
    /// An Ed25519 private key.
    public static func ed25519(_ key: Curve25519.Signing.PrivateKey) -> Self { Self(storage: .ed25519(key)) }
    /// A P-256 private key for `ecdsa-p256-sha256`.
    public static func ecdsaP256SHA256(_ key: P256.Signing.PrivateKey) -> Self { Self(storage: .p256(key)) }

    /// The algorithm this key signs with.
    public var algorithm: MessageSignatureAlgorithm {
        switch storage {
        case .hmac: .hmacSHA256
        case .ed25519: .ed25519
        case .p256: .ecdsaP256SHA256
        }
    }

    /// The matching verification key (the same secret for HMAC, the public key otherwise).
    public var verificationKey: MessageVerificationKey {
        switch storage {
        case .hmac(let key): .hmacSHA256(key)
        case .ed25519(let key): .ed25519(key.publicKey)
        case .p256(let key): .ecdsaP256SHA256(key.publicKey)
        }
    }

    /// Signs `data`: the HMAC, the Ed25519 signature, or the ECDSA signature as raw `r || s`.
    func sign(_ data: Data) throws -> Data {
        switch storage {
        case .hmac(let key): Data(HMAC<SHA256>.authenticationCode(for: data, using: key))
        case .ed25519(let key): try key.signature(for: data)
        case .p256(let key): try key.signature(for: data).rawRepresentation
        }
    }

    /// Names the algorithm, never the key.
    public var description: String { "MessageSigningKey(\(algorithm.rawValue))" }

    /// Shows the algorithm only.
    public var customMirror: Mirror { Mirror(self, children: ["algorithm": algorithm], displayStyle: .struct) }
}

/// A key that checks RFC 9421 signatures. Its `description` and `dump` name the algorithm only.
public struct MessageVerificationKey: Sendable, CustomStringConvertible, CustomReflectable {
    private enum Storage: Sendable {
        case hmac(SymmetricKey)
        case ed25519(Curve25519.Signing.PublicKey)
        case p256(P256.Signing.PublicKey)
    }

    private let storage: Storage

    /// An HMAC-SHA256 shared secret.
    public static func hmacSHA256(_ key: SymmetricKey) -> Self { Self(storage: .hmac(key)) }
    /// An Ed25519 public key.
    public static func ed25519(_ key: Curve25519.Signing.PublicKey) -> Self { Self(storage: .ed25519(key)) }
    /// A P-256 public key for `ecdsa-p256-sha256`.
    public static func ecdsaP256SHA256(_ key: P256.Signing.PublicKey) -> Self { Self(storage: .p256(key)) }

    /// The algorithm this key verifies.
    public var algorithm: MessageSignatureAlgorithm {
        switch storage {
        case .hmac: .hmacSHA256
        case .ed25519: .ed25519
        case .p256: .ecdsaP256SHA256
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
        }
    }

    /// Names the algorithm, never the key.
    public var description: String { "MessageVerificationKey(\(algorithm.rawValue))" }

    /// Shows the algorithm only.
    public var customMirror: Mirror { Mirror(self, children: ["algorithm": algorithm], displayStyle: .struct) }
}
