// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
import Foundation
import GRDB

/// A multi-user ``/AuthCore/CredentialStore`` in one SQLite file (GRDB over the system libsqlite3), with
/// ``/AuthCore/RefreshLocking`` that excludes other processes sharing the file.
///
/// Records are rows keyed by (namespace, account, item) holding the envelope's kind, format
/// version, opaque payload bytes and times; the vault above encrypts payloads when a cipher is
/// configured, so the store never sees plaintext it does not need. The file is a WAL database
/// (readers never wait for writers) created with mode 0600, as are its `-wal` and `-shm` files.
/// Every write is one transaction, so after a crash a record holds its old or its new value.
/// The folder must belong to this user and be writable by no one else, and no link at the
/// database or its side files is ever followed (see ``open(at:options:)`` and
/// `StoreDirectoryPolicy`).
///
/// ```swift
/// let store = try await SQLiteCredentialStore.open(at: "/home/me/.config/app/credentials.sqlite")
/// try await store.put(envelope, for: CredentialKey(namespace: "github", account: "alice", item: "credential"))
/// let accounts = try await store.accounts(in: "github")   // ["alice"]
/// ```
///
/// Errors are ``/AuthCore/CredentialStoreError``s: `.unavailable` when the file stays locked past
/// ``SQLiteStoreOptions/busyTimeout`` (never read that as "signed out"), `.corrupted` for a file
/// that is not a database (left untouched) or a record that cannot be decoded (left in place),
/// `.incompatibleVersion` for a file written by a newer schema.
public final class SQLiteCredentialStore: CredentialStore, RefreshLocking {
    /// The database file, as the caller gave it (errors name this path; SQLite opens the file in
    /// the folder's real path).
    public let path: String
    /// The options the store was opened with.
    public let options: SQLiteStoreOptions

    let pool: DatabasePool
    /// A read-only connection of its own for ``get(_:)``.
    let reader: RecordReader
    /// In-process serialisation of refresh locks, taken before the cross-process lease.
    let locks = AccountLocks()
    /// Identifies this store instance in lease rows (with a per-acquisition suffix).
    let instanceID = UUID().uuidString

    init(path: String, options: SQLiteStoreOptions, pool: DatabasePool, reader: RecordReader) {
        self.path = path
        self.options = options
        self.pool = pool
        self.reader = reader
    }

    static let upsertRecord = """
        INSERT INTO credential_record
            (namespace, account, item, kind, format_version, payload, updated_at, expires_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (namespace, account, item) DO UPDATE SET
            kind = excluded.kind, format_version = excluded.format_version,
            payload = excluded.payload, updated_at = excluded.updated_at,
            expires_at = excluded.expires_at
        """

    static let selectRecord = "SELECT \(RecordCodec.envelopeColumns) FROM credential_record WHERE namespace = ? AND account = ? AND item = ?"

    /// The record at `key`, or nil when there is none.
    /// - Throws: `.corrupted` (with `key`) when the stored row cannot be decoded; `.unavailable`.
    ///
    /// Runs on the calling thread, on a read-only connection of its own (see `RecordReader`):
    /// in a WAL database a lookup does not wait for writers, and it sees every write committed
    /// before it began.
    public func get(_ key: CredentialKey) async throws -> Envelope? {
        do {
            return try reader.get(key)
        } catch {
            throw SQLiteErrors.translate(error, operation: "reading a record", path: path, key: key)
        }
    }

    /// Writes the record at `key` in one transaction (an upsert), replacing any previous one.
    public func put(_ envelope: Envelope, for key: CredentialKey) async throws {
        try await putMany([key: envelope])
    }

    /// Writes several records in one transaction: after a crash either all of them or none are
    /// written.
    public func putMany(_ records: [CredentialKey: Envelope]) async throws {
        guard !records.isEmpty else { return }
        try await perform("writing records", key: records.count == 1 ? records.first?.key : nil) {
            try await pool.write { db in
                let statement = try db.cachedStatement(sql: Self.upsertRecord)
                for (key, envelope) in records {
                    try statement.execute(arguments: RecordCodec.upsertArguments(envelope, for: key))
                }
            }
        }
    }

    /// Writes (or, with nil, removes) the record at `key` in one transaction, only if the record
    /// there is still `expected`: same payload bytes and write time, or absent when nil.
    public func replace(_ key: CredentialKey, ifCurrent expected: Envelope?, with envelope: Envelope?) async throws -> Bool {
        try await perform("replacing a record", key: key) {
            try await pool.write { db in
                let row = try Row.fetchOne(db, sql: "SELECT payload, updated_at FROM credential_record WHERE namespace = ? AND account = ? AND item = ?",
                                           arguments: RecordCodec.arguments(key))
                let matches: Bool
                switch (row, expected) {
                case (nil, nil): matches = true
                case (let row?, let expected?):
                    let payload: DatabaseValue = row[0]
                    let updatedAt: DatabaseValue = row[1]
                    matches = payload == expected.payload.databaseValue
                        && Double.fromDatabaseValue(updatedAt) == expected.updatedAt.timeIntervalSinceReferenceDate
                default: matches = false
                }
                guard matches else { return false }
                if let envelope {
                    try db.execute(sql: Self.upsertRecord, arguments: RecordCodec.upsertArguments(envelope, for: key))
                } else {
                    try db.execute(sql: "DELETE FROM credential_record WHERE namespace = ? AND account = ? AND item = ?",
                                   arguments: RecordCodec.arguments(key))
                }
                return true
            }
        }
    }

    /// Removes the record at `key`; removing a missing record is not an error.
    public func delete(_ key: CredentialKey) async throws {
        try await perform("deleting a record", key: key) {
            try await pool.write { db in
                try db.execute(sql: "DELETE FROM credential_record WHERE namespace = ? AND account = ? AND item = ?",
                               arguments: RecordCodec.arguments(key))
            }
        }
    }

    /// The item names of one account, sorted as Swift's `sorted()` sorts them.
    public func items(of account: AccountKey) async throws -> [String] {
        try await names("item", sql: "SELECT item FROM credential_record WHERE namespace = ? AND account = ? ORDER BY item",
                        arguments: RecordCodec.arguments(account))
    }

    /// The accounts with at least one record in `namespace`, sorted as Swift's `sorted()` sorts them.
    public func accounts(in namespace: String) async throws -> [String] {
        try await names("account", sql: "SELECT DISTINCT account FROM credential_record WHERE namespace = ? ORDER BY account",
                        arguments: [RecordCodec.blob(KeyNormalization.nfc(namespace))])
    }

    /// The namespaces with at least one record, sorted as Swift's `sorted()` sorts them.
    ///
    /// A skip scan over the primary key: one index seek per namespace, however many records.
    public func namespaces() async throws -> [String] {
        try await names("namespace", sql: """
            WITH RECURSIVE ns(name) AS (
                SELECT min(namespace) FROM credential_record
                UNION ALL
                SELECT (SELECT min(namespace) FROM credential_record WHERE namespace > ns.name)
                FROM ns WHERE ns.name IS NOT NULL
            )
            SELECT name FROM ns WHERE name IS NOT NULL
            """, arguments: [])
    }

    /// Removes every record of one account (in one transaction).
    public func deleteAccount(_ account: AccountKey) async throws {
        try await perform("deleting an account") {
            try await pool.write { db in
                try db.execute(sql: "DELETE FROM credential_record WHERE namespace = ? AND account = ?",
                               arguments: RecordCodec.arguments(account))
            }
        }
    }

    /// Removes every record (in one transaction).
    public func deleteAll() async throws {
        try await perform("deleting all records") {
            try await pool.write { db in try db.execute(sql: "DELETE FROM credential_record") }
        }
    }

    private func names(_ what: String, sql: String, arguments: StatementArguments) async throws -> [String] {
        let path = path
        return try await perform("listing \(what)s") {
            let values = try await pool.read { db in try DatabaseValue.fetchAll(db, sql: sql, arguments: arguments) }
            return try RecordCodec.sortedNames(values, what: what, path: path)
        }
    }

    /// Runs `work`, translating SQLite failures into ``/AuthCore/CredentialStoreError``s.
    func perform<T>(_ operation: String, key: CredentialKey? = nil, _ work: () async throws -> T) async throws -> T {
        do {
            return try await work()
        } catch {
            throw SQLiteErrors.translate(error, operation: operation, path: path, key: key)
        }
    }
}
