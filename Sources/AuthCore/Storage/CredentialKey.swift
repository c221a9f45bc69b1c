// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// The user a credential belongs to: a namespace (the service or provider) and an account.
///
/// Both parts are kept in Unicode Normalization Form C (see ``KeyNormalization``): the NFC and
/// NFD spellings of `café` are one account, in memory and in every store.
public struct AccountKey: Hashable, Sendable, Codable, CustomStringConvertible {
    private var _namespace: String
    private var _account: String

    /// The service or provider, such as `github` or `api.example.com`.
    public var namespace: String {
        get { _namespace }
        set { _namespace = KeyNormalization.nfc(newValue) }
    }
    /// The user within the namespace.
    public var account: String {
        get { _account }
        set { _account = KeyNormalization.nfc(newValue) }
    }
    /// Creates a key.
    public init(namespace: String, account: String) {
        _namespace = KeyNormalization.nfc(namespace)
        _account = KeyNormalization.nfc(account)
    }
    /// `namespace/account`.
    public var description: String { "\(namespace)/\(account)" }

    /// The key of one item of this account.
    public func item(_ item: String) -> CredentialKey {
        CredentialKey(namespace: namespace, account: account, item: item)
    }

    enum CodingKeys: String, CodingKey { case namespace, account }

    /// Decodes a key, normalizing it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(namespace: try container.decode(String.self, forKey: .namespace), account: try container.decode(String.self, forKey: .account))
    }
    /// Encodes `namespace` and `account`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(namespace, forKey: .namespace)
        try container.encode(account, forKey: .account)
    }
}

/// Where one record lives in a ``CredentialStore``: namespace, account and item.
///
/// Every part is kept in Unicode Normalization Form C (see ``KeyNormalization``), so a store
/// that compares bytes (SQLite, file names) and Swift's `==`, which compares canonical
/// equivalence, agree on which keys are the same.
public struct CredentialKey: Hashable, Sendable, Codable, CustomStringConvertible {
    private var _namespace: String
    private var _account: String
    private var _item: String

    /// The service or provider.
    public var namespace: String {
        get { _namespace }
        set { _namespace = KeyNormalization.nfc(newValue) }
    }
    /// The user within the namespace.
    public var account: String {
        get { _account }
        set { _account = KeyNormalization.nfc(newValue) }
    }
    /// The record of that user, such as `credential` or `device-id`.
    public var item: String {
        get { _item }
        set { _item = KeyNormalization.nfc(newValue) }
    }
    /// Creates a key.
    public init(namespace: String, account: String, item: String) {
        _namespace = KeyNormalization.nfc(namespace)
        _account = KeyNormalization.nfc(account)
        _item = KeyNormalization.nfc(item)
    }
    /// The account part of the key.
    public var accountKey: AccountKey { AccountKey(namespace: namespace, account: account) }
    /// `namespace/account/item`.
    public var description: String { "\(namespace)/\(account)/\(item)" }

    enum CodingKeys: String, CodingKey { case namespace, account, item }

    /// Decodes a key, normalizing it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            namespace: try container.decode(String.self, forKey: .namespace),
            account: try container.decode(String.self, forKey: .account),
            item: try container.decode(String.self, forKey: .item)
        )
    }
    /// Encodes `namespace`, `account` and `item`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(namespace, forKey: .namespace)
        try container.encode(account, forKey: .account)
        try container.encode(item, forKey: .item)
    }
}
