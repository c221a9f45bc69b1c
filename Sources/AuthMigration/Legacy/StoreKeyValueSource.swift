// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
import Foundation

/// A ``KeyValueSource`` over records of a `CredentialStore` whose payloads are plain UTF-8
/// values: a legacy layout that kept each token as its own item of one account
/// (`legacy/default/access_token`, `legacy/default/refresh_token`).
///
/// ```swift
/// let source = StoreKeyValueSource(store: oldStore, account: AccountKey(namespace: "legacy", account: "default"))
/// ```
/// Records are only read, never changed or removed.
public struct StoreKeyValueSource: KeyValueSource, CustomStringConvertible {
    /// The store read from.
    public let store: any CredentialStore
    private let keyFor: @Sendable (String) -> CredentialKey
    private let label: String

    /// Reads each key as an item of `account`.
    public init(store: any CredentialStore, account: AccountKey) {
        self.store = store
        self.keyFor = { account.item($0) }
        self.label = account.description
    }

    /// Reads each key from the record `keyFor` names, for layouts that spread values over
    /// several accounts or namespaces.
    public init(store: any CredentialStore, keyFor: @escaping @Sendable (String) -> CredentialKey) {
        self.store = store
        self.keyFor = keyFor
        self.label = "custom keys"
    }

    /// The payload of the record for `key` as text, or nil when there is no record.
    /// - Throws: The store's `CredentialStoreError`; ``MigrationError`` `.invalidLegacyValue`
    ///   when the payload is not UTF-8 text.
    public func value(for key: String) async throws -> String? {
        let recordKey = keyFor(key)
        guard let envelope = try await store.get(recordKey) else { return nil }
        guard let text = String(data: envelope.payload, encoding: .utf8) else {
            throw MigrationError(code: .invalidLegacyValue, message: "the legacy record of '\(key)' is not UTF-8 text", key: recordKey)
        }
        return text
    }

    /// Where the values are read; never a value.
    public var description: String { "StoreKeyValueSource(\(label))" }
}
