// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
public import Foundation

/// Stores an account's TOTP secret and parameters in a ``/AuthCore/CredentialStore``.
///
/// The record is item `totp-secret` of the account, kind `otp.totp`, JSON with the base32
/// secret, algorithm, digits, period and t0. The payload holds the secret: use a store that
/// encrypts at rest where that matters. The vault's own ``description`` names only the item.
///
/// ```swift
/// let vault = TOTPSecretVault(store: store)
/// try await vault.save(totp, for: account)
/// let loaded = try await vault.load(for: account)
/// ```
public struct TOTPSecretVault: Sendable, CustomStringConvertible, CustomReflectable {
    /// The item name of the record.
    public static let item = "totp-secret"
    /// The envelope kind of the record.
    public static let kind = "otp.totp"

    private struct Record: Codable, Sendable {
        var secret: String
        var algorithm: OTPAlgorithm
        var digits: Int
        var period: Int
        var t0: Int64
    }

    private let store: any CredentialStore
    private let now: @Sendable () -> Date
    private let json = StoredJSON<Record>(kind: TOTPSecretVault.kind, formatVersion: 1)

    /// Creates a vault over `store`.
    ///
    /// - Parameters:
    ///   - store: Where the secret is kept.
    ///   - now: The clock for the records' `updatedAt`.
    public init(store: any CredentialStore, now: @escaping @Sendable () -> Date = { Date() }) {
        self.store = store
        self.now = now
    }

    /// Stores `totp`'s secret and parameters for `account`, replacing any earlier ones.
    ///
    /// - Throws: ``/AuthCore/CredentialStoreError`` when the store fails.
    public func save(_ totp: TOTP, for account: AccountKey) async throws {
        let record = Record(secret: totp.secret.base32EncodedString(), algorithm: totp.algorithm, digits: totp.digits, period: totp.period, t0: totp.t0)
        try await json.save(record, to: store, key: account.item(Self.item), now: now())
    }

    /// The account's TOTP generator, or nil when none is stored.
    ///
    /// - Throws: ``/AuthCore/CredentialStoreError`` when the store fails, or `.corrupted` when the record
    ///   holds an invalid secret or parameters (the record is left in place).
    public func load(for account: AccountKey) async throws -> TOTP? {
        let key = account.item(Self.item)
        guard let record = try await json.load(from: store, key: key) else { return nil }
        do {
            return try TOTP(secret: OTPSecret(base32: record.secret), algorithm: record.algorithm, digits: record.digits, period: record.period, t0: record.t0)
        } catch {
            throw CredentialStoreError.corrupted("the stored TOTP secret or parameters are invalid", key: key)
        }
    }

    /// Removes the account's secret.
    public func delete(for account: AccountKey) async throws {
        try await store.delete(account.item(Self.item))
    }

    /// `TOTPSecretVault(item: totp-secret)`.
    public var description: String { "TOTPSecretVault(item: \(Self.item))" }
    /// A mirror with the item name only.
    public var customMirror: Mirror { Mirror(self, children: ["item": Self.item], displayStyle: .struct) }
}
