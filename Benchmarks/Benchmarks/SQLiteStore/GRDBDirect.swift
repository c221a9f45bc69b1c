// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Foundation
import GRDB

/// Diagnostics that split the store's cost: the store's SQL through GRDB directly, with a cached
/// (prepared once) statement, reading asynchronously (as the store does) or synchronously. The
/// pool is configured as `SQLiteCredentialStore.open` configures its own (WAL, 4 readers,
/// `synchronous = FULL`).
enum GRDBDirect {
    /// The store's two statements, shared with the raw baseline (`RawSQLite`).
    static let select = """
        SELECT kind, format_version, payload, updated_at, expires_at FROM credential_record \
        WHERE namespace = ? AND account = ? AND item = ?
        """
    static let upsert = """
        INSERT INTO credential_record
            (namespace, account, item, kind, format_version, payload, updated_at, expires_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (namespace, account, item) DO UPDATE SET
            kind = excluded.kind, format_version = excluded.format_version,
            payload = excluded.payload, updated_at = excluded.updated_at,
            expires_at = excluded.expires_at
        """

    static func openPool(path: String) throws -> DatabasePool {
        var configuration = Configuration()
        configuration.journalMode = .wal
        configuration.busyMode = .timeout(5)
        configuration.maximumReaderCount = 4
        let pool = try DatabasePool(path: path, configuration: configuration)
        try pool.writeWithoutTransaction { try $0.execute(sql: "PRAGMA synchronous = FULL") }
        return pool
    }

    static func arguments(_ key: CredentialKey) -> StatementArguments {
        [Data(key.namespace.utf8), Data(key.account.utf8), Data(key.item.utf8)]
    }

    /// Reads one record with a cached statement, inside the pool's read transaction.
    static func get(_ db: Database, _ key: CredentialKey) throws -> Envelope? {
        let statement = try db.cachedStatement(sql: select)
        guard let row = try Row.fetchOne(statement, arguments: arguments(key)) else { return nil }
        let kind: Data = row[0]
        let expires: Double? = row[4]
        return Envelope(
            formatVersion: row[1], kind: String(decoding: kind, as: UTF8.self), payload: row[2],
            updatedAt: Date(timeIntervalSinceReferenceDate: row[3]),
            expiresAt: expires.map { Date(timeIntervalSinceReferenceDate: $0) })
    }

    /// Writes one record with a cached statement, inside the pool's write transaction.
    static func put(_ db: Database, _ envelope: Envelope, _ key: CredentialKey) throws {
        let statement = try db.cachedStatement(sql: upsert)
        try statement.execute(arguments: arguments(key) + [
            Data(envelope.kind.utf8), envelope.formatVersion, envelope.payload,
            envelope.updatedAt.timeIntervalSinceReferenceDate, envelope.expiresAt?.timeIntervalSinceReferenceDate,
        ])
    }
}
