// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Foundation
import GRDB
import GRDBSQLite
import Synchronization

/// The read-only connection behind ``SQLiteCredentialStore/get(_:)``: one prepared statement on
/// the sqlite3 C API, used on the calling thread under a lock.
///
/// A get is one indexed lookup. Through GRDB's pool it took ~120 µs here, nearly all of it the
/// hop to a reader's dispatch queue and the read transaction around the statement; on this
/// connection it costs about what the raw C API costs. In a WAL database a reader does not wait
/// for writers (other processes' included), so holding the caller's thread is brief; each read
/// sees every write committed before it began. Decoding is as strict as ``RecordCodec``'s.
final class RecordReader: Sendable {
    private struct Handles {
        var db: OpaquePointer?
        var select: OpaquePointer?
    }

    private let handles: Mutex<Handles>
    private let path: String

    /// `SQLITE_TRANSIENT`: SQLite copies the bound bytes before `bind` returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// Opens `path` read-only and prepares the select.
    /// - Throws: GRDB's `DatabaseError` with SQLite's code and message.
    init(path: String, busyTimeout: Duration) throws {
        self.path = path
        var db: OpaquePointer?
        // NOFOLLOW: SQLite refuses a path with a link in it (the store passes a resolved one).
        let opened = sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW, nil)
        guard opened == SQLITE_OK, let db else {
            let error = Self.error(db, code: opened)
            sqlite3_close(db)
            throw error
        }
        sqlite3_busy_timeout(db, Int32(clamping: busyTimeout.milliseconds))
        var select: OpaquePointer?
        let prepared = sqlite3_prepare_v3(db, SQLiteCredentialStore.selectRecord, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &select, nil)
        guard prepared == SQLITE_OK, let select else {
            let error = Self.error(db, code: prepared)
            sqlite3_close(db)
            throw error
        }
        handles = Mutex(Handles(db: db, select: select))
    }

    deinit { close() }

    /// Closes the connection; later reads fail with `SQLITE_MISUSE`.
    func close() {
        handles.withLock { handles in
            sqlite3_finalize(handles.select)
            sqlite3_close(handles.db)
            handles = Handles()
        }
    }

    /// The record at `key`, or nil.
    /// - Throws: `DatabaseError` for SQLite failures, `.corrupted` for a row that cannot be decoded.
    func get(_ key: CredentialKey) throws -> Envelope? {
        try handles.withLock { handles throws -> Envelope? in
            guard let db = handles.db, let select = handles.select else {
                throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "the store is closed")
            }
            defer {
                sqlite3_reset(select)
                sqlite3_clear_bindings(select)
            }
            Self.bind(key.namespace, 1, select)
            Self.bind(key.account, 2, select)
            Self.bind(key.item, 3, select)
            switch sqlite3_step(select) {
            case SQLITE_DONE: return nil
            case SQLITE_ROW: return try decode(select, key: key)
            case let code: throw Self.error(db, code: code)
            }
        }
    }

    /// Binds a name as the UTF-8 BLOB the schema stores.
    private static func bind(_ name: String, _ index: Int32, _ statement: OpaquePointer) {
        var name = name
        name.withUTF8 { bytes in
            _ = sqlite3_bind_blob(statement, index, bytes.baseAddress, Int32(bytes.count), transient)
        }
    }

    private func decode(_ row: OpaquePointer, key: CredentialKey) throws -> Envelope {
        guard let kind = text(row, 0) else { throw corrupted("its kind is not UTF-8 text", key) }
        guard sqlite3_column_type(row, 1) == SQLITE_INTEGER else { throw corrupted("its format_version is not an integer", key) }
        guard sqlite3_column_type(row, 2) == SQLITE_BLOB else { throw corrupted("its payload is not a BLOB", key) }
        guard let updatedAt = date(row, 3) else { throw corrupted("its updated_at is not a number", key) }
        let expiresAt: Date?
        if sqlite3_column_type(row, 4) == SQLITE_NULL {
            expiresAt = nil
        } else if let date = date(row, 4) {
            expiresAt = date
        } else {
            throw corrupted("its expires_at is not a number", key)
        }
        return Envelope(
            formatVersion: Int(sqlite3_column_int64(row, 1)), kind: kind, payload: bytes(row, 2),
            updatedAt: updatedAt, expiresAt: expiresAt)
    }

    private func bytes(_ row: OpaquePointer, _ column: Int32) -> Data {
        let count = Int(sqlite3_column_bytes(row, column))
        guard count > 0, let start = sqlite3_column_blob(row, column) else { return Data() }
        return Data(bytes: start, count: count)
    }

    /// A name stored as a UTF-8 BLOB (or TEXT, if another tool wrote one).
    private func text(_ row: OpaquePointer, _ column: Int32) -> String? {
        switch sqlite3_column_type(row, column) {
        case SQLITE_BLOB, SQLITE_TEXT: String(validating: bytes(row, column), as: UTF8.self)
        default: nil
        }
    }

    private func date(_ row: OpaquePointer, _ column: Int32) -> Date? {
        switch sqlite3_column_type(row, column) {
        case SQLITE_FLOAT:
            let seconds = sqlite3_column_double(row, column)
            return seconds.isFinite ? Date(timeIntervalSinceReferenceDate: seconds) : nil
        case SQLITE_INTEGER:
            return Date(timeIntervalSinceReferenceDate: TimeInterval(sqlite3_column_int64(row, column)))
        default:
            return nil
        }
    }

    private func corrupted(_ reason: String, _ key: CredentialKey) -> CredentialStoreError {
        RecordCodec.corrupted(reason, key, path)
    }

    private static func error(_ db: OpaquePointer?, code: Int32) -> DatabaseError {
        DatabaseError(resultCode: ResultCode(rawValue: code), message: db.map { String(cString: sqlite3_errmsg($0)) })
    }
}
