// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
import Crypto

/// The vault's AES-256-GCM key in a keyring: found there, or created there on first use.
public enum KeyringVaultKey {
    /// The keyring account of the vault's key unless the caller names another.
    public static let defaultAccount = "vault-key"

    /// The vault key of `service`, created and stored in `keyring` when there is none.
    ///
    /// What is returned is what the keyring holds after the store (read back), so that the
    /// caller never seals with a key the keyring did not keep. A new key is added beside any
    /// other (``Keyring/addSecret(_:for:label:)``), never over it: two processes that both found
    /// none and both created one read back the same, the first, and a key the keyring did not
    /// show (a locked part of it) is not destroyed.
    /// - Parameters:
    ///   - service: The keyring service name.
    ///   - account: The key's name within the service.
    ///   - keyring: The keyring.
    /// - Returns: The 32-byte key.
    /// - Throws: ``KeyringError``; `.malformedAnswer` when the stored key is not 32 bytes.
    public static func key(service: String, account: String = defaultAccount, keyring: any Keyring) async throws -> KeyringSecret {
        let item = KeyringItem(service: service, account: account)
        if let stored = try await keyring.secret(for: item) { return try checked(stored, item) }
        let fresh = SymmetricKey(size: .bits256).withUnsafeBytes { KeyringSecret(copying: $0) }
        try await keyring.addSecret(fresh, for: item, label: "AuthKit credential key (\(service))")
        guard let stored = try await keyring.secret(for: item) else {
            throw KeyringError(code: .failed, message: "the keyring took the new key of \(item) but does not return it")
        }
        return try checked(stored, item)
    }

    /// An `AESGCMCipher` with the vault key of `service` (see ``key(service:account:keyring:)``).
    /// - Parameters:
    ///   - service: The keyring service name.
    ///   - account: The key's name within the service.
    ///   - keyring: The keyring.
    /// - Throws: ``KeyringError``.
    public static func cipher(service: String, account: String = defaultAccount, keyring: any Keyring) async throws -> AESGCMCipher {
        let key = try await key(service: service, account: account, keyring: keyring)
        return try key.withUnsafeBytes { try AESGCMCipher(key: SymmetricKey(data: $0)) }
    }

    private static func checked(_ key: KeyringSecret, _ item: KeyringItem) throws -> KeyringSecret {
        guard key.count == 32 else {
            throw KeyringError(code: .malformedAnswer, message: "the keyring item \(item) holds \(key.count) bytes, not a 32-byte vault key; it was left as it is (replacing it would make the records sealed with it unreadable)")
        }
        return key
    }
}
