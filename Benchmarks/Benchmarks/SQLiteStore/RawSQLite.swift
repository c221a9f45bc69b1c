// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import BenchmarkSupport
import Foundation
import GRDBSQLite

/// The baseline: the same two statements as `SQLiteCredentialStore` (see
/// Sources/AuthSQLiteStore/Schema/StoreSchema.swift and Store/SQLiteCredentialStore.swift), run
/// through the sqlite3 C API with prepared statements, on the same file and with the same pragmas
/// (WAL, `synchronous = FULL`).
///
/// Not Sendable: one benchmark process owns it and uses it from one task at a time.
final class RawSQLite {
    private let db: OpaquePointer
    private let select: OpaquePointer
    private let upsert: OpaquePointer
    private let begin: OpaquePointer
    private let commit: OpaquePointer

    /// `SQLITE_TRANSIENT`: SQLite copies bound bytes before `bind` returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    init(path: String) throws {
        var handle: OpaquePointer?
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK,
              let handle else {
            sqlite3_close(handle)
            throw BenchmarkSetupError("sqlite3_open_v2 failed for \(path)")
        }
        db = handle
        sqlite3_busy_timeout(db, 5_000)
        try Self.exec(db, "PRAGMA journal_mode = WAL")
        try Self.exec(db, "PRAGMA synchronous = FULL")
        select = try Self.prepare(db, GRDBDirect.select)
        upsert = try Self.prepare(db, GRDBDirect.upsert)
        begin = try Self.prepare(db, "BEGIN IMMEDIATE")
        commit = try Self.prepare(db, "COMMIT")
    }

    deinit {
        for statement in [select, upsert, begin, commit] { sqlite3_finalize(statement) }
        sqlite3_close(db)
    }

    /// Reads one record and decodes it into an `Envelope`, as the store does.
    func get(_ key: CredentialKey) throws -> Envelope? {
        defer { sqlite3_reset(select) }
        bindKey(key, to: select)
        switch sqlite3_step(select) {
        case SQLITE_DONE: return nil
        case SQLITE_ROW: break
        default: throw error("select")
        }
        let kindBytes = UnsafeRawBufferPointer(
            start: sqlite3_column_blob(select, 0), count: Int(sqlite3_column_bytes(select, 0)))
        let payload = Data(bytes: sqlite3_column_blob(select, 2), count: Int(sqlite3_column_bytes(select, 2)))
        let expires: Date? = sqlite3_column_type(select, 4) == SQLITE_NULL
            ? nil : Date(timeIntervalSinceReferenceDate: sqlite3_column_double(select, 4))
        return Envelope(
            formatVersion: Int(sqlite3_column_int64(select, 1)),
            kind: String(decoding: kindBytes, as: UTF8.self),
            payload: payload,
            updatedAt: Date(timeIntervalSinceReferenceDate: sqlite3_column_double(select, 3)),
            expiresAt: expires)
    }

    /// Writes one record in its own transaction, as the store's `put` does.
    func put(_ envelope: Envelope, for key: CredentialKey) throws {
        try run(begin)
        do {
            defer { sqlite3_reset(upsert) }
            bindKey(key, to: upsert)
            bindBlob(Data(envelope.kind.utf8), 4, upsert)
            sqlite3_bind_int64(upsert, 5, Int64(envelope.formatVersion))
            bindBlob(envelope.payload, 6, upsert)
            sqlite3_bind_double(upsert, 7, envelope.updatedAt.timeIntervalSinceReferenceDate)
            if let expires = envelope.expiresAt {
                sqlite3_bind_double(upsert, 8, expires.timeIntervalSinceReferenceDate)
            } else {
                sqlite3_bind_null(upsert, 8)
            }
            guard sqlite3_step(upsert) == SQLITE_DONE else { throw error("upsert") }
        } catch {
            try? Self.exec(db, "ROLLBACK")
            throw error
        }
        try run(commit)
    }

    private func run(_ statement: OpaquePointer) throws {
        defer { sqlite3_reset(statement) }
        guard sqlite3_step(statement) == SQLITE_DONE else { throw error(String(cString: sqlite3_sql(statement))) }
    }

    private func bindKey(_ key: CredentialKey, to statement: OpaquePointer) {
        bindBlob(Data(key.namespace.utf8), 1, statement)
        bindBlob(Data(key.account.utf8), 2, statement)
        bindBlob(Data(key.item.utf8), 3, statement)
    }

    private func bindBlob(_ data: Data, _ index: Int32, _ statement: OpaquePointer) {
        data.withUnsafeBytes { bytes in
            _ = sqlite3_bind_blob(statement, index, bytes.baseAddress, Int32(bytes.count), Self.transient)
        }
    }

    private func error(_ what: String) -> BenchmarkSetupError {
        BenchmarkSetupError("\(what): \(String(cString: sqlite3_errmsg(db)))")
    }

    private static func prepare(_ db: OpaquePointer, _ sql: String) throws -> OpaquePointer {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v3(db, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil) == SQLITE_OK,
              let statement else {
            throw BenchmarkSetupError("prepare failed: \(String(cString: sqlite3_errmsg(db)))")
        }
        return statement
    }

    private static func exec(_ db: OpaquePointer, _ sql: String) throws {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else {
            throw BenchmarkSetupError("\(sql): \(String(cString: sqlite3_errmsg(db)))")
        }
    }
}
