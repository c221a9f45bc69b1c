// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import GRDB

/// Translates SQLite and GRDB failures into ``/AuthCore/CredentialStoreError`` codes callers can act on.
///
/// - `SQLITE_BUSY` / `SQLITE_LOCKED` (still locked after the busy timeout) → `.unavailable`:
///   the records are not known to be gone, so a caller must never read this as "signed out".
/// - `SQLITE_NOTADB` / `SQLITE_CORRUPT` → `.corrupted`, naming the file.
/// - Anything else → `.io`, naming the file.
///
/// GRDB's `DatabaseError` carries the SQL text but not the arguments (GRDB keeps statement
/// arguments private unless `publicStatementArguments` is set), so no payload or name leaks.
enum SQLiteErrors {
    static func isBusy(_ error: DatabaseError) -> Bool {
        error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED
    }

    static func isCorruption(_ error: DatabaseError) -> Bool {
        error.resultCode == .SQLITE_NOTADB || error.resultCode == .SQLITE_CORRUPT
    }

    /// The store error for `error`, which happened while `operation` on the file at `path`.
    static func translate(_ error: any Error, operation: String, path: String, key: CredentialKey? = nil) -> any Error {
        switch error {
        case let error as CredentialStoreError:
            return error
        case is CancellationError:
            return error
        case let error as DatabaseError where isBusy(error):
            return CredentialStoreError(
                code: .unavailable,
                message: "the credential database is locked by another connection; \(operation) gave up after the busy timeout, try again later",
                key: key, path: path, underlying: error)
        case let error as DatabaseError where isCorruption(error):
            return CredentialStoreError(
                code: .corrupted,
                message: "the credential database is damaged or is not an SQLite database (\(operation))",
                key: key, path: path, underlying: error)
        default:
            return CredentialStoreError(
                code: .io, message: "\(operation) failed on the credential database",
                key: key, path: path, underlying: error)
        }
    }
}
