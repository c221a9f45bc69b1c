// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
public import Foundation

/// Keeps each account's recovery codes in a ``/AuthCore/CredentialStore`` as salted hashes, and consumes
/// a code the first time it is used.
///
/// The record is item `recovery-codes` of the account, kind `otp.recovery`, holding a
/// ``RecoveryCodeSet`` as JSON. A code is consumed by compare-and-swap on the record
/// (``/AuthCore/CredentialStore/replace(_:ifCurrent:with:)``), so a code cannot be used twice and
/// no redemption is undone by another, whether concurrent requests reach the same vault, two
/// vaults, or two processes sharing the store. (Calls for one account to one vault also wait for
/// each other, which spares them conflicts; correctness does not rest on that.)
///
/// ```swift
/// let vault = RecoveryCodeVault(store: store)
/// let codes = try await vault.regenerate(for: account)   // show these once
/// print(try await vault.redeem("7k3m-q9x2", for: account))      // true, then false
/// ```
public actor RecoveryCodeVault: CustomStringConvertible, CustomReflectable {
    /// The item name of the record.
    public static let item = "recovery-codes"
    /// The envelope kind of the record.
    public static let kind = "otp.recovery"

    private let store: any CredentialStore
    private let now: @Sendable () -> Date
    private let locks = AccountLocks()
    private let json = StoredJSON<RecoveryCodeSet>(kind: RecoveryCodeVault.kind, formatVersion: 1)

    /// Creates a vault over `store`.
    ///
    /// - Parameters:
    ///   - store: Where the hashed codes are kept.
    ///   - now: The clock for `usedAt` and `updatedAt`.
    public init(store: any CredentialStore, now: @escaping @Sendable () -> Date = { Date() }) {
        self.store = store
        self.now = now
    }

    /// Replaces the account's codes with `count` new ones and returns them (the only time they
    /// are available in plain text).
    ///
    /// - Throws: ``/AuthCore/CredentialStoreError`` when the store fails.
    public func regenerate(for account: AccountKey, count: Int = 10) async throws -> [RecoveryCode] {
        let codes = RecoveryCode.generate(count: count)
        let set = RecoveryCodeSet(codes: codes)
        try await locks.withLock(account) { [store, json, now] in
            try await json.save(set, to: store, key: account.item(Self.item), now: now())
        }
        return codes
    }

    /// Consumes `code` if it is one of the account's unused codes.
    ///
    /// - Returns: true the first time a valid code is given; false for a wrong, malformed or
    ///   already used code, or when the account has no codes.
    /// - Throws: ``/AuthCore/CredentialStoreError`` when the store fails; ``MFAError``
    ///   `.writeConflict` when other writers kept changing the record. The code is then not
    ///   consumed and not accepted.
    public func redeem(_ code: String, for account: AccountKey) async throws -> Bool {
        try await locks.withLock(account) { [store, json, now] in
            try await json.update(in: store, key: account.item(Self.item), now: now) { stored, date in
                guard var set = stored, set.redeem(code, at: date) else { return (nil, false) }
                return (set, true)
            }
        }
    }

    /// How many unused codes the account has (0 when it has none).
    public func remaining(for account: AccountKey) async throws -> Int {
        try await json.load(from: store, key: account.item(Self.item))?.remaining ?? 0
    }

    /// Removes the account's codes.
    public func delete(for account: AccountKey) async throws {
        try await locks.withLock(account) { [store] in
            try await store.delete(account.item(Self.item))
        }
    }

    /// `RecoveryCodeVault(item: recovery-codes)`.
    public nonisolated var description: String { "RecoveryCodeVault(item: \(Self.item))" }
    /// A mirror with the item name only (the store is not reflected).
    public nonisolated var customMirror: Mirror { Mirror(self, children: ["item": Self.item], displayStyle: .class) }
}
