// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// Where a store's tables live: their names qualified by the store's schema
/// (``PostgresStoreOptions/schema``, validated: the names are spliced into statements), and the
/// channel its change feed listens on.
struct PostgresTables: Sendable {
    /// The schema, as validated by ``PostgresStoreOptions``.
    let schema: String

    /// The schema as an identifier in a statement.
    var quotedSchema: String { "\"\(schema)\"" }
    /// The records.
    var credentials: String { "\(quotedSchema).authkit_credentials" }
    /// The migrations applied.
    var migrations: String { "\(quotedSchema).authkit_schema_migrations" }
    /// The change feed's channel (migration 3): `authkit_credentials` in `public`, as before there
    /// were schemas, else `authkit_credentials.<schema>`.
    var channel: String { schema == "public" ? "authkit_credentials" : "authkit_credentials.\(schema)" }
}
