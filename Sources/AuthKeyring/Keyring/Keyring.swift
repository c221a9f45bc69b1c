// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// A place outside the credential store for a few secrets, such as the vault's key: the
/// operating system's keyring.
///
/// ``SecretServiceKeyring`` is the Linux implementation (the freedesktop.org Secret Service
/// that GNOME Keyring and KWallet provide); ``InMemoryKeyring`` keeps secrets in memory, for
/// tests and examples.
///
/// ```swift
/// let keyring = SecretServiceKeyring()
/// let item = KeyringItem(service: "com.example.mytool", account: "api-key")
/// try await keyring.setSecret(KeyringSecret(bytes: Array("s3cr3t".utf8)), for: item, label: "My tool's API key")
/// let secret = try await keyring.secret(for: item)
/// ```
///
/// ## Implementing
/// The Apple Keychain fits as a generic password per item (`kSecAttrService`,
/// `kSecAttrAccount`). Map the platform's failures to ``KeyringError``'s codes: a keyring that
/// cannot be unlocked without the user (`errSecInteractionNotAllowed`) is `.locked`, a prompt the
/// user cancelled is `.denied`, no keyring service is `.serviceUnavailable`. Never put a secret
/// in an error or a log line.
public protocol Keyring: Sendable {
    /// The secret stored for `item`, or nil when there is none.
    /// - Throws: ``KeyringError``.
    func secret(for item: KeyringItem) async throws -> KeyringSecret?

    /// Stores `secret` for `item`, replacing the one stored before.
    /// - Parameters:
    ///   - secret: The secret.
    ///   - item: Where it goes.
    ///   - label: What the keyring's own user interface shows for the item.
    /// - Throws: ``KeyringError``.
    func setSecret(_ secret: KeyringSecret, for item: KeyringItem, label: String) async throws

    /// Stores `secret` for `item` without replacing a secret stored before: when `item` has one
    /// already, that one stays what ``secret(for:)`` returns. Two callers that each found no
    /// secret and each add one thus both read the same one back.
    /// - Parameters:
    ///   - secret: The secret.
    ///   - item: Where it goes.
    ///   - label: What the keyring's own user interface shows for the item.
    /// - Throws: ``KeyringError``.
    func addSecret(_ secret: KeyringSecret, for item: KeyringItem, label: String) async throws

    /// Deletes the secret of `item`.
    /// - Returns: Whether there was one.
    /// - Throws: ``KeyringError``.
    @discardableResult
    func deleteSecret(for item: KeyringItem) async throws -> Bool
}
