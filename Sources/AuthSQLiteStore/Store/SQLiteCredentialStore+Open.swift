import AuthCore
import Foundation
import GRDB

extension SQLiteCredentialStore {
    /// Opens the store at `path`, creating the file (mode 0600, and its folder with mode 0700)
    /// when it does not exist, and bringing its schema up to date.
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
    /// - Throws: ``CredentialStoreError``: `.corrupted` (naming the path) for a file that is not a
    ///   database or fails its integrity check; `.incompatibleVersion` for a newer schema;
    ///   `.unavailable` when the file stays locked past the busy timeout; `.invalidArgument` for
    ///   options out of range (a negative timeout, a lease under 30 ms); `.io` otherwise.
    public static func open(at path: String, options: SQLiteStoreOptions = SQLiteStoreOptions()) async throws -> SQLiteCredentialStore {
        let (pool, reader) = try await BlockingWork.run {
            let pool = try openPool(at: path, options: options)
            do {
                return (pool, try RecordReader(path: path, busyTimeout: options.busyTimeout))
            } catch {
                try? pool.close()
                throw SQLiteErrors.translate(error, operation: "opening the store", path: path)
            }
        }
        return SQLiteCredentialStore(path: path, options: options, pool: pool, reader: reader)
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

    private static func openPool(at path: String, options: SQLiteStoreOptions) throws -> DatabasePool {
        do {
            try options.validate(path: path)
            switch try DatabaseFile.inspect(path) {
            case .absent: try DatabaseFile.createPrivate(path)
            case .empty: break
            case .database: try validateReadOnly(path, options: options)
            }
            let pool = try DatabasePool(path: path, configuration: configuration(options))
            do {
                // GRDB sets `synchronous = NORMAL` when it enables WAL; apply the chosen durability
                // to the writer connection (the only one that commits).
                try pool.writeWithoutTransaction { db in
                    try db.execute(sql: "PRAGMA synchronous = \(options.durability.pragmaValue)")
                }
                try DatabaseFile.restrictPermissions(path)
                try StoreSchema.migrate(pool, path: path)
                return pool
            } catch {
                try? pool.close()
                throw error
            }
        } catch {
            throw SQLiteErrors.translate(error, operation: "opening the store", path: path)
        }
    }

    /// Checks an existing file on a read-only connection, which cannot change it.
    private static func validateReadOnly(_ path: String, options: SQLiteStoreOptions) throws {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(options.busyTimeout.timeInterval)
        configuration.label = "AuthSQLiteStore.validation"
        let queue = try DatabaseQueue(path: path, configuration: configuration)
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
        configuration.busyMode = .timeout(options.busyTimeout.timeInterval)
        configuration.maximumReaderCount = 4
        return configuration
    }
}
