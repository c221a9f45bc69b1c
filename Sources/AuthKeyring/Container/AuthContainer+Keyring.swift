// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore

extension AuthContainer {
    /// Seals the container's stored credentials with a key kept in the OS keyring: created there
    /// on first use, found there afterwards.
    ///
    /// The store then holds only sealed records, and its files are useless without the user's
    /// keyring. On Linux the keyring is the Secret Service (GNOME Keyring, KWallet):
    ///
    /// ```swift
    /// let container = AuthContainer()
    /// try await container.useSQLiteStore(at: path)
    /// try await container.useKeyringCipher(service: "com.example.mytool")
    /// ```
    ///
    /// Call it once at start-up, before the first client is made. A key in the keyring that is
    /// not a 256-bit key is reported, never replaced: replacing it would make every record sealed
    /// with it unreadable.
    ///
    /// Two processes starting for the very first time at the same instant may each create a key;
    /// the keyring keeps both, and both processes (and every later one) use the first.
    /// - Parameters:
    ///   - service: The keyring service name of the key, such as your tool's bundle identifier.
    ///   - account: The key's name within the service; `vault-key` by default.
    ///   - keyring: The keyring; the platform's by default (the Secret Service on Linux).
    /// - Returns: The cipher now configured.
    /// - Throws: ``KeyringError`` (`.locked`, `.denied`, `.serviceUnavailable`, `.timeout`;
    ///   `.malformedAnswer` for a stored key that is not 32 bytes).
    @discardableResult
    public func useKeyringCipher(service: String, account: String = KeyringVaultKey.defaultAccount, keyring: any Keyring) async throws -> AESGCMCipher {
        let cipher = try await KeyringVaultKey.cipher(service: service, account: account, keyring: keyring)
        useCipher(cipher)
        return cipher
    }

    #if os(Linux)
    /// Seals the container's stored credentials with a key kept in the Secret Service, created
    /// on first use: ``useKeyringCipher(service:account:keyring:)`` with a
    /// ``SecretServiceKeyring`` on the session bus.
    /// - Parameters:
    ///   - service: The keyring service name of the key, such as your tool's bundle identifier.
    ///   - account: The key's name within the service; `vault-key` by default.
    /// - Returns: The cipher now configured.
    /// - Throws: ``KeyringError``.
    @discardableResult
    public func useKeyringCipher(service: String, account: String = KeyringVaultKey.defaultAccount) async throws -> AESGCMCipher {
        try await useKeyringCipher(service: service, account: account, keyring: SecretServiceKeyring())
    }
    #endif
}
