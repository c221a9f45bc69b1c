// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthPostgresStore
import PostgresNIO
import Testing

/// `postgres://` URLs as `--store` and the worker take them.
@Suite struct PostgresURLTests {
    @Test func userPasswordHostPortAndDatabaseAreRead() throws {
        let configuration = try #require(try PostgresCredentialStore.configuration(url: "postgres://svc%40corp:p%40ss%25w0rd@db.internal:6543/auth?sslmode=disable"))
        #expect(configuration.username == "svc@corp")
        #expect(configuration.password == "p@ss%w0rd")
        #expect(configuration.host == "db.internal")
        #expect(configuration.port == 6543)
        #expect(configuration.database == "auth")
        let defaults = try #require(try PostgresCredentialStore.configuration(url: "postgresql://svc@db"))
        #expect(defaults.port == 5432 && defaults.database == nil)
    }

    @Test func otherSchemesAreNotPostgreSQL() throws {
        #expect(try PostgresCredentialStore.configuration(url: "/var/lib/app/credentials.sqlite") == nil)
        #expect(try PostgresCredentialStore.configuration(url: "https://db.internal") == nil)
    }

    /// A URL that cannot be right is refused, and the refusal never repeats the password.
    @Test func badURLsAreRefusedWithoutTheirPassword() {
        for url in ["postgres://db.internal/auth", "postgres://svc:hunter2@db/auth?sslmode=sometimes", "postgres://svc:hunter2@db/auth?ssl=true", "postgres://:hunter2@db/auth"] {
            #expect(throws: CredentialStoreError.self, "\(url)") { try PostgresCredentialStore.configuration(url: url) }
            do {
                _ = try PostgresCredentialStore.configuration(url: url)
            } catch {
                #expect(!"\(error)".contains("hunter2"))
            }
        }
    }
}

/// libpq's URL parameters, read without a server.
@Suite struct PostgresURLParameterTests {
    @Test func applicationNameAndConnectTimeoutAreRead() throws {
        let configuration = try #require(try PostgresCredentialStore.configuration(url: "postgres://svc@db/auth?application_name=billing%20worker&connect_timeout=3"))
        #expect(configuration.options.additionalStartupParameters.contains { $0.0 == "application_name" && $0.1 == "billing worker" })
        #expect(configuration.options.connectTimeout == .seconds(3))
    }

    @Test func anIPv6LiteralIsAHost() throws {
        let configuration = try #require(try PostgresCredentialStore.configuration(url: "postgres://svc@[::1]:6543/auth"))
        #expect(configuration.host == "::1" && configuration.port == 6543)
    }

    @Test func aHostParameterNamingADirectoryIsAUnixSocket() throws {
        let socket = try #require(try PostgresCredentialStore.configuration(url: "postgres://svc@/auth?host=/var/run/postgresql&port=5433"))
        #expect(socket.unixSocketPath == "/var/run/postgresql/.s.PGSQL.5433" && socket.host == nil)
        let encoded = try #require(try PostgresCredentialStore.configuration(url: "postgresql://svc@%2Fvar%2Frun%2Fpostgresql/auth"))
        #expect(encoded.unixSocketPath == "/var/run/postgresql/.s.PGSQL.5432")
        let named = try #require(try PostgresCredentialStore.configuration(url: "postgres://svc@ignored/auth?host=db.internal"))
        #expect(named.host == "db.internal")
    }

    /// Each parameter with a value it cannot take is refused by its name, without the password.
    @Test func badParameterValuesAreRefusedByName() {
        let cases = [
            ("connect_timeout=0", "connect_timeout"), ("connect_timeout=soon", "connect_timeout"),
            ("application_name=\(String(repeating: "a", count: 64))", "application_name"),
            ("sslrootcert=/no/such/ca.pem", "sslrootcert"), ("sslmode=disable&sslrootcert=system", "sslrootcert"),
            ("host=a,b", "host"), ("port=70000", "port"), ("target_session_attrs=read-write", "target_session_attrs"),
        ]
        for (query, name) in cases {
            do {
                _ = try PostgresCredentialStore.configuration(url: "postgres://svc:hunter2@db/auth?\(query)")
                Issue.record("\(query) was taken")
            } catch let error as CredentialStoreError {
                #expect(error.code == .invalidArgument && error.message.contains(name), "\(query): \(error)")
                #expect(!"\(error)".contains("hunter2"))
            } catch {
                Issue.record("\(query): \(error)")
            }
        }
    }
}
