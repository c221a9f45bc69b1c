// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore

extension PostgresCredentialStore {
    /// The longest namespace, account or item name the store takes, in UTF-8 bytes (after
    /// Unicode normalization, as keys keep them): 1,024. A longer one is refused before any query
    /// with `CredentialStoreError.invalidArgument`, naming the part and its size, never its value.
    public static let maximumNameBytes = 1_024

    /// Refuses a key with a part over ``maximumNameBytes``.
    static func check(_ key: CredentialKey) throws {
        try check(namespace: key.namespace)
        try check(key.account, "account")
        try check(key.item, "item")
    }

    /// Refuses an account key with a part over ``maximumNameBytes``.
    static func check(_ account: AccountKey) throws {
        try check(namespace: account.namespace)
        try check(account.account, "account")
    }

    /// Refuses a namespace over ``maximumNameBytes``.
    static func check(namespace: String) throws {
        try check(namespace, "namespace")
    }

    private static func check(_ name: String, _ part: String) throws {
        let size = name.utf8.count
        guard size <= maximumNameBytes else {
            throw CredentialStoreError.invalidArgument("the PostgreSQL store takes names of up to \(maximumNameBytes) UTF-8 bytes; this key's \(part) has \(size)")
        }
    }
}
