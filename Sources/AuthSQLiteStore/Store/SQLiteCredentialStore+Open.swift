// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Foundation
import GRDB

extension SQLiteCredentialStore {
    /// Opens the store at `path`, creating the file (mode 0600, and its folder with mode 0700)
    /// when it does not exist, and bringing its schema up to date.
    ///
    /// The folder gets the file store's checks (see `StoreDirectoryPolicy`): it must belong to
    /// this user and be writable by no one else, sticky bit or not, so a database directly in
    /// `/tmp` is refused (use a private folder in it). Links in the path to the folder are
    /// followed; a link at the database path or at its `-wal`, `-shm` or `-journal` file, dangling
    /// or not, is refused and left in place, and nothing is created through it.
    ///
    /// An existing file is checked before anything can write to it: it must start with the SQLite
    /// header, pass `PRAGMA quick_check` on a read-only connection, and not carry a newer schema.
    /// Only then is it opened read-write (which switches it to WAL mode and migrates it). A file
    /// that fails those checks is left byte-for-byte as it was. The work runs on a dispatch queue,
    /// not on Swift's cooperative pool.
    ///
    /// ```swift
    /// let store = try await SQLiteCredentialStore.open(at: path, options: SQLiteStoreOptions(busyTimeout: .seconds(2)))
    /// ```
    /// - Parameters:
    ///   - path: The database file.
    ///   - options: Timeouts, durability and lease settings.
    /// - Throws: ``/AuthCore/CredentialStoreError``: `.corrupted` (naming the path) for a file that is not a
    ///   database or fails its integrity check; `.incompatibleVersion` for a newer schema;
    ///   `.unavailable` when the file stays locked past the busy timeout; `.invalidArgument` for
    ///   options out of range (a negative timeout, a lease under 30 ms) and for a location the
    ///   policy refuses (naming the path at fault, with the `StoreDirectoryPolicy.Refusal` as
    ///   `underlying`); `.io` otherwise.
    public static func open(at path: String, options: SQLiteStoreOptions = SQLiteStoreOptions()) async throws -> SQLiteCredentialStore {
        // Processes that create or migrate the file at once can be refused without the busy
        // handler being asked (SQLite returns SQLITE_BUSY at once where waiting could deadlock,
        // as when switching a new file to WAL): such an open is tried again until the busy
        // timeout has passed, not given up at the first refusal.
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: options.busyTimeout)
        while true {
            do {
                let (pool, reader) = try await BlockingWork.run {
                    let (pool, file) = try openPool(at: path, options: options)
                    do {
                        return (pool, try RecordReader(path: file, busyTimeout: options.busyTimeout))
                    } catch {
                        try? pool.close()
                        throw SQLiteErrors.translate(error, operation: "opening the store", path: path)
                    }
                }
                return SQLiteCredentialStore(path: path, options: options, pool: pool, reader: reader)
            } catch let error as CredentialStoreError where error.code == .unavailable && clock.now < deadline {
                try await Task.sleep(for: .milliseconds(Int.random(in: 10...40)))
            }
        }
    }

    /// Checkpoints the WAL into the database file (when no other process is reading it) and
    /// closes the connections. Calls after this one fail with `.io`.
    ///
    /// Closing is optional: the connections close when the store is deallocated. Closing the
    /// readers before the writer makes the writer the last connection, so SQLite also removes the
    /// `-wal` file when no other process has the database open.
    public func close() async throws {
        let pool = pool
        let reader = reader
        let path = path
        try await BlockingWork.run {
            do {
                reader.close()
                // Best effort: another process reading the file can keep the WAL from being emptied.
                _ = try? pool.writeWithoutTransaction { try $0.checkpoint(.truncate) }
                pool.releaseMemory()
                try pool.close()
            } catch {
                throw SQLiteErrors.translate(error, operation: "closing the store", path: path)
            }
        }
    }

    /// - Returns: The pool, and the path it opened (the folder's real path and the file name).
    private static func openPool(at path: String, options: SQLiteStoreOptions) throws -> (DatabasePool, String) {
        do {
            try options.validate(path: path)
            let file = try DatabaseLocation.resolve(path)
            switch try DatabaseFile.inspect(file, path: path) {
            case .absent: try DatabaseFile.createPrivate(file, path: path)
            case .empty: break
            case .database: try validateReadOnly(file, path: path, options: options)
            }
            // Again, right before SQLite opens it: a link planted meanwhile is refused too.
            try DatabaseLocation.checkFiles(path)
            let pool = try DatabasePool(path: file, configuration: configuration(options))
            do {
                // GRDB sets `synchronous = NORMAL` when it enables WAL; apply the chosen durability
                // to the writer connection (the only one that commits).
                try pool.writeWithoutTransaction { db in
                    try db.execute(sql: "PRAGMA synchronous = \(options.durability.pragmaValue)")
                }
                try DatabaseFile.restrictPermissions(file, path: path)
                try StoreSchema.migrate(pool, path: path)
                return (pool, file)
            } catch {
                try? pool.close()
                throw error
            }
        } catch {
            throw SQLiteErrors.translate(error, operation: "opening the store", path: path)
        }
    }

    /// Checks an existing file on a read-only connection, which cannot change it.
    private static func validateReadOnly(_ file: String, path: String, options: SQLiteStoreOptions) throws {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(options.busyTimeout.seconds)
        configuration.label = "AuthSQLiteStore.validation"
        let queue = try DatabaseQueue(path: file, configuration: configuration)
        defer { try? queue.close() }
        try queue.read { db in
            let report = try String.fetchAll(db, sql: "PRAGMA quick_check")
            guard report == ["ok"] else {
                throw CredentialStoreError.corrupted(
                    "the database failed its integrity check (\(report.prefix(3).joined(separator: "; "))); it was left untouched",
                    path: path)
            }
            try StoreSchema.checkNotNewer(db, path: path)
        }
    }

    private static func configuration(_ options: SQLiteStoreOptions) -> Configuration {
        var configuration = Configuration()
        configuration.label = "AuthSQLiteStore"
        configuration.journalMode = .wal
        configuration.busyMode = .timeout(options.busyTimeout.seconds)
        configuration.maximumReaderCount = 4
        return configuration
    }
}
