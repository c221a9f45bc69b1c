// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore

extension AuthContainer {
    /// Opens (or creates) a SQLite credential store at `path` and makes it the container's store.
    ///
    /// ```swift
    /// try await container.useSQLiteStore(at: "/var/lib/mytool/credentials.sqlite")
    /// ```
    /// - Returns: The opened store, for callers that want to close it explicitly.
    /// - Throws: `CredentialStoreError` (`.corrupted` for a file that is not a database,
    ///   `.incompatibleVersion` for a schema newer than this code, `.unavailable` when locked).
    @discardableResult
    public func useSQLiteStore(at path: String, options: SQLiteStoreOptions = SQLiteStoreOptions()) async throws -> SQLiteCredentialStore {
        let store = try await SQLiteCredentialStore.open(at: path, options: options)
        override(CredentialStoreKey.self, with: store)
        return store
    }
}
