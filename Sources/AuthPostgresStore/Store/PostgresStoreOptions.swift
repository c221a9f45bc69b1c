// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore

/// How a ``PostgresCredentialStore`` waits, follows changes, sizes its pool and where its tables
/// live; one value for ``PostgresCredentialStore/open(configuration:options:logger:)`` and
/// `AuthContainer.usePostgresStore(_:options:)`.
///
/// ```swift
/// var options = PostgresStoreOptions()
/// options.schema = "billing"  // another deployment in the same database keeps `public`
/// options.operationTimeout = .seconds(5)
/// let store = try await PostgresCredentialStore.open(configuration: .init(host: "db.internal", username: "authkit", password: password, database: "auth", tls: .disable), options: options)
/// ```
public struct PostgresStoreOptions: Sendable {
    /// How long a renewal waits for another machine's refresh lock before it reports the store
    /// unavailable. Default 30 seconds.
    public var lockTimeout: Duration
    /// How long one read or write (and each statement of the refresh lock's transaction, and
    /// opening) may take before it reports the store unavailable: the database unreachable, a
    /// connection that stopped answering. Default 10 seconds.
    public var operationTimeout: Duration
    /// How the store follows the changes other machines make; nil for none (every `get` then reads
    /// the database). Default: a feed with ``PostgresChangeFeedOptions``' defaults.
    public var changeFeed: PostgresChangeFeedOptions?
    /// The most connections the pool of a store made by `open` keeps, at least 3 (the change feed
    /// and a refresh lock hold one each while the renewal reads and writes through another);
    /// nil keeps what the `PostgresClient.Configuration` says (PostgresNIO's default is 20). A store
    /// over a client of the caller's ignores it. Default nil.
    public var poolSize: Int?
    /// The PostgreSQL schema the store's tables live in, created when missing (unless
    /// ``readOnly``), so that two deployments can share one database, each in its own schema.
    /// Lower-case ASCII letters, digits and `_`, starting with a letter or `_`, at most
    /// ``maximumSchemaNameBytes`` bytes (so that the change feed's channel,
    /// `authkit_credentials.<schema>`, fits PostgreSQL's 63-byte names); not `pg_`-prefixed.
    /// Default `public`.
    public var schema: String
    /// Opens the store without migrating, for a role that may only read or a hot standby: opening
    /// checks that the schema exists and is neither older nor newer than this code, every read is
    /// served, and every write (and ``PostgresCredentialStore/withRefreshLock(for:_:)``, whose
    /// renewal could not be stored) throws `CredentialStoreError.readOnly` without reaching the
    /// server. A hot standby in recovery refuses `LISTEN`: there, set ``changeFeed`` to nil (the
    /// feed would keep trying, and `get` read through meanwhile). Default false.
    public var readOnly: Bool

    /// The longest ``schema`` name.
    public static let maximumSchemaNameBytes = 43

    /// Creates options; every parameter has the documented default.
    public init(lockTimeout: Duration = .seconds(30), operationTimeout: Duration = .seconds(10), changeFeed: PostgresChangeFeedOptions? = .init(), poolSize: Int? = nil, schema: String = "public", readOnly: Bool = false) {
        self.lockTimeout = lockTimeout
        self.operationTimeout = operationTimeout
        self.changeFeed = changeFeed
        self.poolSize = poolSize
        self.schema = schema
        self.readOnly = readOnly
    }
}

extension PostgresStoreOptions {
    /// Throws `.invalidArgument`, naming the option, for options no store can honour.
    func validate() throws {
        guard lockTimeout > .zero else { throw CredentialStoreError.invalidArgument("PostgresStoreOptions.lockTimeout must be positive") }
        guard operationTimeout > .zero else { throw CredentialStoreError.invalidArgument("PostgresStoreOptions.operationTimeout must be positive") }
        if let changeFeed {
            guard changeFeed.probeTimeout > .zero else { throw CredentialStoreError.invalidArgument("PostgresChangeFeedOptions.probeTimeout must be positive") }
            guard changeFeed.reprobeInterval > .zero else { throw CredentialStoreError.invalidArgument("PostgresChangeFeedOptions.reprobeInterval must be positive") }
        }
        if let poolSize, poolSize < 3 {
            throw CredentialStoreError.invalidArgument("PostgresStoreOptions.poolSize must be at least 3 (the change feed and a refresh lock hold one connection each while the renewal reads and writes through another), not \(poolSize)")
        }
        let bytes = Array(schema.utf8)
        guard !bytes.isEmpty, bytes.count <= Self.maximumSchemaNameBytes else {
            throw CredentialStoreError.invalidArgument("PostgresStoreOptions.schema must be 1 to \(Self.maximumSchemaNameBytes) bytes long, not \(bytes.count)")
        }
        let valid = bytes.allSatisfy { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "_") }
        guard valid, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[0]), !schema.hasPrefix("pg_") else {
            throw CredentialStoreError.invalidArgument("PostgresStoreOptions.schema must be lower-case ASCII letters, digits and '_', start with a letter or '_', and not start with 'pg_'")
        }
    }
}
