// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Crypto
public import Foundation

/// AES-256-GCM sealing of stored credentials, with a key the caller supplies.
///
/// ```swift
/// let cipher = try AESGCMCipher(key: keyFromKeychainOrKMS)   // 32 bytes
/// let vault = CredentialVault(store: store, cipher: cipher)
/// ```
/// Sealed payloads start with the 4-byte tag `AKG1`, then nonce, ciphertext and tag. The key
/// never appears in any description.
public struct AESGCMCipher: CredentialCipher, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    static let magic = Data("AKG1".utf8)
    private let key: SymmetricKey

    /// Uses a 256-bit key.
    /// - Throws: `CredentialStoreError` code `.invalidArgument` when the key is not 32 bytes.
    public init(key: Data) throws {
        guard key.count == 32 else {
            throw CredentialStoreError(code: .invalidArgument, message: "an AES-256-GCM key has 32 bytes; this one has \(key.count)")
        }
        self.key = SymmetricKey(data: key)
    }

    /// Uses a `SymmetricKey` of 256 bits (kept as it is: no copy of its bytes is made).
    /// - Throws: `CredentialStoreError` code `.invalidArgument` when the key is not 256 bits.
    public init(key: SymmetricKey) throws {
        guard key.bitCount == 256 else {
            throw CredentialStoreError(code: .invalidArgument, message: "an AES-256-GCM key has 32 bytes; this one has \(key.bitCount / 8)")
        }
        self.key = key
    }

    /// A new random 256-bit key, for callers that keep it themselves.
    public static func generateKey() -> Data {
        SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
    }

    /// Encrypts `plaintext`, authenticating `context` with it.
    public func seal(_ plaintext: Data, context: Data) throws -> Data {
        do {
            let box = try AES.GCM.seal(plaintext, using: key, authenticating: context)
            guard let combined = box.combined else {
                throw CredentialStoreError(code: .cipher, message: "AES-GCM produced no combined output")
            }
            return Self.magic + combined
        } catch let error as CredentialStoreError {
            throw error
        } catch {
            throw CredentialStoreError(code: .cipher, message: "sealing the record failed", underlying: error)
        }
    }

    /// Decrypts a sealed payload.
    /// - Throws: `CredentialStoreError` code `.cipher` when the payload is not sealed, the key is
    ///   wrong, or any byte was changed.
    public func open(_ sealed: Data, context: Data) throws -> Data {
        guard sealed.starts(with: Self.magic) else {
            throw CredentialStoreError(code: .cipher, message: "the record is not sealed with AES-GCM although a cipher is configured")
        }
        do {
            let box = try AES.GCM.SealedBox(combined: sealed.dropFirst(Self.magic.count))
            return try AES.GCM.open(box, using: key, authenticating: context)
        } catch {
            throw CredentialStoreError(code: .cipher, message: "the record could not be opened: wrong key, or the record was altered")
        }
    }

    /// Names the algorithm; never the key.
    public var description: String { "AESGCMCipher(key: <redacted>)" }
    /// The same as ``description``.
    public var debugDescription: String { description }
    /// A mirror without the key, so `dump` shows none of its bytes.
    public var customMirror: Mirror { Mirror(self, children: ["key": "<redacted>"], displayStyle: .struct) }
}
