// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Logging
import PostgresNIO

/// The store's tables, created and evolved by identified, append-only migrations that run in one
/// transaction under an advisory lock, so that instances starting together migrate once. The
/// migrations name no schema: they run with `search_path` set to the store's schema
/// (``PostgresTables``), which they create when it is missing.
enum PostgresSchema {
    /// The advisory lock key every migrating instance takes.
    static let migrationLock: Int64 = 0x4155_5448_4B49_5401

    /// The migrations, in order; never edit one that shipped, append a new one. Names are kept as
    /// their UTF-8 bytes (`bytea`): any string round-trips (a `text` column refuses NUL), and no
    /// collation of the server decides what two names compare as.
    static let migrations: [(id: Int, statements: [String])] = [
        (1, ["""
            CREATE TABLE authkit_credentials (
                namespace bytea NOT NULL,
                account bytea NOT NULL,
                item bytea NOT NULL,
                format_version integer NOT NULL,
                kind text NOT NULL,
                payload bytea NOT NULL,
                updated_at double precision NOT NULL,
                expires_at double precision,
                PRIMARY KEY (namespace, account, item)
            )
            """]),
        // The change feed: every write notifies `authkit_credentials` with the account it touched
        // (`<namespace hex>.<account hex>`, or `*` when that would not fit a notification), sent
        // when its transaction commits.
        (2, ["""
            CREATE FUNCTION authkit_credentials_notify() RETURNS trigger LANGUAGE plpgsql AS $$
            DECLARE
                changed authkit_credentials;
            BEGIN
                IF TG_OP = 'DELETE' THEN changed := OLD; ELSE changed := NEW; END IF;
                IF octet_length(changed.namespace) + octet_length(changed.account) <= 3900 THEN
                    PERFORM pg_notify('authkit_credentials', encode(changed.namespace, 'hex') || '.' || encode(changed.account, 'hex'));
                ELSE
                    PERFORM pg_notify('authkit_credentials', '*');
                END IF;
                RETURN NULL;
            END
            $$
            """, """
            CREATE TRIGGER authkit_credentials_notify AFTER INSERT OR UPDATE OR DELETE ON authkit_credentials
                FOR EACH ROW EXECUTE FUNCTION authkit_credentials_notify()
            """, """
            CREATE FUNCTION authkit_credentials_notify_all() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                PERFORM pg_notify('authkit_credentials', '*');
                RETURN NULL;
            END
            $$
            """, """
            CREATE TRIGGER authkit_credentials_notify_all AFTER TRUNCATE ON authkit_credentials
                FOR EACH STATEMENT EXECUTE FUNCTION authkit_credentials_notify_all()
            """]),
        // The change feed of a schema other than `public` on a channel of its own
        // (`authkit_credentials.<schema>`), so that deployments sharing a database do not hear
        // each other; the row as a `record`, which names no table and so no schema.
        (3, ["""
            CREATE OR REPLACE FUNCTION authkit_credentials_notify() RETURNS trigger LANGUAGE plpgsql AS $$
            DECLARE
                changed record;
                channel text := CASE WHEN TG_TABLE_SCHEMA = 'public' THEN 'authkit_credentials' ELSE 'authkit_credentials.' || TG_TABLE_SCHEMA END;
            BEGIN
                IF TG_OP = 'DELETE' THEN changed := OLD; ELSE changed := NEW; END IF;
                IF octet_length(changed.namespace) + octet_length(changed.account) <= 3900 THEN
                    PERFORM pg_notify(channel, encode(changed.namespace, 'hex') || '.' || encode(changed.account, 'hex'));
                ELSE
                    PERFORM pg_notify(channel, '*');
                END IF;
                RETURN NULL;
            END
            $$
            """, """
            CREATE OR REPLACE FUNCTION authkit_credentials_notify_all() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                PERFORM pg_notify(CASE WHEN TG_TABLE_SCHEMA = 'public' THEN 'authkit_credentials' ELSE 'authkit_credentials.' || TG_TABLE_SCHEMA END, '*');
                RETURN NULL;
            END
            $$
            """]),
    ]

    /// The newest migration this code knows.
    static var version: Int { migrations.last?.id ?? 0 }

    /// Applies the migrations the database lacks, in `tables`' schema (created when missing).
    /// - Throws: `CredentialStoreError` `.incompatibleVersion` when the database was migrated by
    ///   newer code; what the database throws.
    static func migrate(_ client: PostgresClient, tables: PostgresTables, logger: Logger) async throws {
        try await client.withTransaction(logger: logger) { connection in
            for try await _ in try await connection.query("SELECT pg_advisory_xact_lock(\(migrationLock))", logger: logger) {}  // drained: waited for
            // Created only when missing: `CREATE SCHEMA IF NOT EXISTS` needs the privilege to
            // create schemas even when it exists.
            var exists = false
            for try await _ in try await connection.query("SELECT 1 FROM pg_namespace WHERE nspname = \(tables.schema)", logger: logger) { exists = true }
            if !exists { try await connection.query("CREATE SCHEMA \(unescaped: tables.quotedSchema)", logger: logger) }
            try await connection.query("SET LOCAL search_path TO \(unescaped: tables.quotedSchema)", logger: logger)
            try await connection.query("CREATE TABLE IF NOT EXISTS authkit_schema_migrations (id integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())", logger: logger)
            var applied: Set<Int> = []
            for try await id in try await connection.query("SELECT id FROM authkit_schema_migrations", logger: logger).decode(Int.self) {
                applied.insert(id)
            }
            if let newest = applied.max(), newest > version {
                throw CredentialStoreError(code: .incompatibleVersion, message: "the PostgreSQL store was migrated to schema \(newest) by newer code; this code knows up to \(version)")
            }
            for migration in migrations where !applied.contains(migration.id) {
                for statement in migration.statements {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.query("INSERT INTO authkit_schema_migrations (id) VALUES (\(migration.id))", logger: logger)
            }
        }
    }
}

extension PostgresSchema {
    /// Checks, without changing anything, that `tables`' schema was migrated by this code's
    /// migrations, for a store opened read-only.
    /// - Throws: `CredentialStoreError` `.misconfigured` when the schema lacks the store's tables
    ///   or some of this code's migrations (open it once with a role that may migrate),
    ///   `.incompatibleVersion` when newer code migrated it; what the database throws.
    static func verify(_ client: PostgresClient, tables: PostgresTables, logger: Logger) async throws {
        var exists = false
        for try await _ in try await client.query("SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = \(tables.schema) AND c.relname = 'authkit_schema_migrations'", logger: logger) { exists = true }
        guard exists else {
            throw CredentialStoreError.misconfigured("the PostgreSQL schema '\(tables.schema)' holds no credential store: open it once without readOnly, with a role that may create tables, to migrate it")
        }
        var applied: Set<Int> = []
        for try await id in try await client.query("SELECT id FROM \(unescaped: tables.migrations)", logger: logger).decode(Int.self) {
            applied.insert(id)
        }
        if let newest = applied.max(), newest > version {
            throw CredentialStoreError(code: .incompatibleVersion, message: "the PostgreSQL store was migrated to schema \(newest) by newer code; this code knows up to \(version)")
        }
        let missing = migrations.map(\.id).filter { !applied.contains($0) }
        guard missing.isEmpty else {
            throw CredentialStoreError.misconfigured("the PostgreSQL store in schema '\(tables.schema)' lacks migrations \(missing.map(String.init).joined(separator: ", ")) of this code: open it once without readOnly, with a role that may alter its tables, to migrate it")
        }
    }
}
