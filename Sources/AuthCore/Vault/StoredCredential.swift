// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Foundation

/// A credential as read from the store, with the record it came from.
///
/// The record fences a later write: ``CredentialVault/replace(_:for:ifCurrent:)`` writes only
/// if the store still holds this record, so a renewal cannot undo a sign-in or sign-out that
/// happened while it ran, in this process or another.
public struct StoredCredential<C: Credential>: Sendable {
    /// The credential.
    public let credential: C
    /// The stored record it was decoded from.
    public let envelope: Envelope

    /// When the record was written: for a credential written when it was obtained, its issue time.
    public var updatedAt: Date { envelope.updatedAt }

    /// Creates a stored credential.
    public init(credential: C, envelope: Envelope) {
        self.credential = credential
        self.envelope = envelope
    }
}

extension CredentialVault {
    /// Reads the credential of an account with its record, or nil when none is stored.
    public func loadRecord<C: Credential>(_ type: C.Type, for account: AccountKey) async throws -> StoredCredential<C>? {
        try await loadRecord(type, at: account.item(Self.credentialItem))
    }

    /// Stores `credential` only if the store still holds `expected` (nil: no record), atomically
    /// where the store supports it.
    /// - Returns: The record now stored, or nil when the record had changed and nothing was written.
    public func replace<C: Credential>(_ credential: C, for account: AccountKey, ifCurrent expected: Envelope?) async throws -> StoredCredential<C>? {
        try await replace(credential, at: account.item(Self.credentialItem), ifCurrent: expected)
    }

    /// Stores `credential` at `key` only if the store still holds `expected` (nil: no record),
    /// atomically where the store supports it.
    /// - Returns: The record now stored, or nil when the record had changed and nothing was written.
    public func replace<C: Credential>(_ credential: C, at key: CredentialKey, ifCurrent expected: Envelope?) async throws -> StoredCredential<C>? {
        let envelope = try envelope(for: credential, key: key)
        guard try await store.replace(key, ifCurrent: expected, with: envelope) else { return nil }
        return StoredCredential(credential: credential, envelope: envelope)
    }

    /// Removes the credential of an account only if the store still holds `expected`.
    /// - Returns: Whether it was removed.
    public func delete(for account: AccountKey, ifCurrent expected: Envelope) async throws -> Bool {
        try await store.replace(account.item(Self.credentialItem), ifCurrent: expected, with: nil)
    }
}
