// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import GRDB

/// The database schema of ``SQLiteCredentialStore``: identified, append-only migrations in raw SQL.
///
/// Never edit a migration once it has shipped; add a new one. Each migration runs in its own
/// transaction, is recorded in GRDB's `grdb_migrations` table, and sets `PRAGMA user_version` to
/// its position, so a file written by newer code is recognised twice over (an identifier this code
/// does not know, or a `user_version` above ``schemaVersion``) and refused with
/// `.incompatibleVersion` instead of being used or altered.
enum StoreSchema {
    /// The number of migrations this code knows; the `user_version` of an up-to-date file.
    static var schemaVersion: Int { migrator.migrations.count }

    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        // Names (namespace, account, item) and kind are UTF-8 bytes stored as BLOBs: a BLOB keeps
        // every byte of any Swift string (GRDB binds TEXT as a C string, which would end at a NUL)
        // and compares with memcmp, i.e. BINARY order, which is Swift's order for ASCII names.
        //
        // Both tables are WITHOUT ROWID, so the primary key *is* the table's B-tree, sorted by
        // (namespace, account, item). That one order serves every listing: "all records of an
        // account" is a range scan on the prefix (namespace, account), "all accounts of a
        // namespace" a range scan on the prefix (namespace), and the namespaces a skip scan over
        // the first column. No secondary index is needed.
        //
        // Times are REAL seconds since 2001-01-01T00:00:00Z, Foundation's reference date: that is
        // how `Date` stores itself, so a date round-trips exactly.
        migrator.registerMigration("v1-records-and-refresh-leases") { db in
            try db.execute(sql: """
                CREATE TABLE credential_record (
                    namespace      BLOB    NOT NULL,
                    account        BLOB    NOT NULL,
                    item           BLOB    NOT NULL,
                    kind           BLOB    NOT NULL,
                    format_version INTEGER NOT NULL,
                    payload        BLOB    NOT NULL,
                    updated_at     REAL    NOT NULL,
                    expires_at     REAL,
                    PRIMARY KEY (namespace, account, item)
                ) WITHOUT ROWID;

                CREATE TABLE refresh_lease (
                    namespace  BLOB NOT NULL,
                    account    BLOB NOT NULL,
                    owner      TEXT NOT NULL,
                    expires_at REAL NOT NULL,
                    PRIMARY KEY (namespace, account)
                ) WITHOUT ROWID;

                PRAGMA user_version = 1;
                """)
        }
        return migrator
    }()

    /// Throws `.incompatibleVersion` when the file was written by a newer schema than this code's.
    static func checkNotNewer(_ db: Database, path: String) throws {
        let userVersion = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        let applied = try migrator.appliedIdentifiers(db)
        let unknown = applied.subtracting(migrator.migrations)
        if userVersion > schemaVersion || !unknown.isEmpty {
            throw CredentialStoreError.incompatibleVersion(
                found: max(userVersion, applied.count), supported: schemaVersion, path: path)
        }
    }

    /// Brings the schema up to date, refusing a newer one.
    ///
    /// Two processes opening a new file at once can both decide to run a migration; the second one
    /// then fails inside its own transaction (which rolls back) and the next attempt sees the
    /// migration applied.
    static func migrate(_ pool: DatabasePool, path: String) throws {
        var attempt = 0
        while true {
            do {
                try pool.read { try checkNotNewer($0, path: path) }
                try migrator.migrate(pool)
                try pool.read { try checkNotNewer($0, path: path) }
                return
            } catch let error as DatabaseError where attempt < 2 && !SQLiteErrors.isBusy(error) {
                attempt += 1
            }
        }
    }
}
