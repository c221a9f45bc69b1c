import AuthCore
import Logging
import PostgresNIO

/// The store's tables, created and evolved by identified, append-only migrations that run in one
/// transaction under an advisory lock, so that instances starting together migrate once.
enum PostgresSchema {
    /// The advisory lock key every migrating instance takes.
    static let migrationLock: Int64 = 0x4155_5448_4B49_5401

    /// The migrations, in order; never edit one that shipped, append a new one. Names are kept as
    /// their UTF-8 bytes (`bytea`): any string round-trips (a `text` column refuses NUL), and no
    /// collation of the server decides what two names compare as.
    static let migrations: [(id: Int, sql: String)] = [
        (1, """
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
            """),
    ]

    /// The newest migration this code knows.
    static var version: Int { migrations.last?.id ?? 0 }

    /// Applies the migrations the database lacks.
    /// - Throws: `CredentialStoreError` `.incompatibleVersion` when the database was migrated by
    ///   newer code; what the database throws.
    static func migrate(_ client: PostgresClient, logger: Logger) async throws {
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(migrationLock))", logger: logger)
            try await connection.query("CREATE TABLE IF NOT EXISTS authkit_schema_migrations (id integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())", logger: logger)
            var applied: Set<Int> = []
            for try await id in try await connection.query("SELECT id FROM authkit_schema_migrations", logger: logger).decode(Int.self) {
                applied.insert(id)
            }
            if let newest = applied.max(), newest > version {
                throw CredentialStoreError(code: .incompatibleVersion, message: "the PostgreSQL store was migrated to schema \(newest) by newer code; this code knows up to \(version)")
            }
            for migration in migrations where !applied.contains(migration.id) {
                try await connection.query(PostgresQuery(unsafeSQL: migration.sql), logger: logger)
                try await connection.query("INSERT INTO authkit_schema_migrations (id) VALUES (\(migration.id))", logger: logger)
            }
        }
    }
}
