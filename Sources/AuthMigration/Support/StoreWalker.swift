// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore

/// Lists every record key of a store: namespaces, then their accounts, then their items.
enum StoreWalker {
    /// Every key, in the store's listing order (ascending by namespace, account, item).
    /// - Parameter namespaces: Only these namespaces, when given.
    static func keys(of store: any CredentialStore, namespaces only: Set<String>? = nil) async throws -> [CredentialKey] {
        var keys: [CredentialKey] = []
        for namespace in try await store.namespaces() where only?.contains(namespace) ?? true {
            for account in try await store.accounts(in: namespace) {
                let owner = AccountKey(namespace: namespace, account: account)
                for item in try await store.items(of: owner) {
                    keys.append(owner.item(item))
                }
            }
        }
        return keys
    }

    /// Reads the record at `key`. A failure that concerns only this record is added to
    /// `skipped` (stage `.readingSource`) and gives nil, as a missing record does.
    /// - Throws: Only errors that stop the whole run (``isFatal(_:)``).
    static func read(_ key: CredentialKey, from store: any CredentialStore, skipped: inout [SkippedRecord]) async throws -> Envelope? {
        do {
            return try await store.get(key)
        } catch {
            try skip(key, at: .readingSource, error, in: &skipped)
            return nil
        }
    }

    /// Adds a failure that concerns only `key` to `skipped`, or rethrows one that stops the run.
    static func skip(_ key: CredentialKey, at stage: SkippedRecord.Stage, _ error: any Error, in skipped: inout [SkippedRecord]) throws {
        if isFatal(error) { throw error }
        skipped.append(.failure(key, stage, error))
    }

    /// Whether an error means the whole store cannot be used now, so going on would be pointless.
    static func isFatal(_ error: any Error) -> Bool {
        if error is CancellationError { return true }
        if let store = error as? CredentialStoreError, store.code == .unavailable { return true }
        return false
    }
}
