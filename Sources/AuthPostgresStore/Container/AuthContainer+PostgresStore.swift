// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
public import PostgresNIO

extension AuthContainer {
    /// Keeps the credentials of every client this container builds in PostgreSQL, shared by every
    /// machine that uses the same database: opens a pool, migrates the schema (or, read-only,
    /// checks it), and sets ``/AuthCore/CredentialStoreKey``.
    ///
    /// ```swift
    /// try await container.usePostgresStore(.init(host: "db.internal", username: "authkit", password: password, database: "auth", tls: .disable))
    /// ```
    /// - Parameters:
    ///   - configuration: Where the database is and how to connect
    ///     (``PostgresCredentialStore/configuration(url:)`` reads a `postgres://` URL).
    ///   - options: Timeouts, change feed, pool size, schema, read-only.
    /// - Returns: The store (``PostgresCredentialStore/close()`` it at shutdown).
    /// - Throws: `CredentialStoreError`, as ``PostgresCredentialStore/open(configuration:options:logger:)``
    ///   throws it.
    @discardableResult
    public func usePostgresStore(_ configuration: PostgresClient.Configuration, options: PostgresStoreOptions = .init()) async throws -> PostgresCredentialStore {
        let store = try await PostgresCredentialStore.open(configuration: configuration, options: options)
        override(CredentialStoreKey.self, with: store)
        return store
    }
}
