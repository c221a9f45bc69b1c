// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthPostgresStore
import AuthTesting
import Foundation
import PostgresNIO
import Testing

extension PostgresSuites {
    /// `postgres://` URLs with libpq's parameters, against a real server: each one does what it
    /// says.
    @Suite(.serialized, .timeLimit(.minutes(3)))
    struct PostgresURLConnectionTests {
        static let record = TypedErrorTests.record
        static let key = TypedErrorTests.key

        /// Opens a store at `url`, writes and reads a record, and returns the store.
        static func roundTrip(_ url: String) async throws -> PostgresCredentialStore {
            let configuration = try #require(try PostgresCredentialStore.configuration(url: url))
            let store = try await PostgresCredentialStore.open(configuration: configuration, options: .init(operationTimeout: .seconds(5), changeFeed: nil))
            try await store.put(Self.record, for: Self.key)
            #expect(try await store.get(Self.key) == Self.record)
            return store
        }

        /// One value of the server's, for the store's own session.
        static func value(_ store: PostgresCredentialStore, _ query: PostgresQuery) async throws -> String? {
            for try await value in try await store.client.query(query).decode(String?.self) { return value }
            return nil
        }

        @Test func aUnixSocketDirectoryWorks() async throws {
            try await PostgresTestCluster.withCluster { cluster in
                let store = try await Self.roundTrip("postgres://authkit@/postgres?host=\(cluster.directory.path)&port=\(cluster.port)")
                #expect(try await Self.value(store, "SELECT coalesce(host(inet_client_addr()), 'socket')") == "socket")
                await store.close()
            }
        }

        @Test func anIPv6LoopbackLiteralWorks() async throws {
            try await PostgresTestCluster.withCluster { cluster in
                let store = try await Self.roundTrip("postgres://authkit@[::1]:\(cluster.port)/postgres?sslmode=disable")
                #expect(try await Self.value(store, "SELECT host(inet_client_addr())") == "::1")
                await store.close()
            }
        }

        @Test func theApplicationNameReachesTheServer() async throws {
            try await PostgresTestCluster.withCluster { cluster in
                let store = try await Self.roundTrip("postgres://authkit@127.0.0.1:\(cluster.port)/postgres?sslmode=disable&application_name=billing-worker&connect_timeout=5")
                #expect(try await Self.value(store, "SELECT current_setting('application_name')") == "billing-worker")
                await store.close()
            }
        }

        /// `sslrootcert` names a private certificate authority: the connection is TLS, verified
        /// against it (host name included); a server whose certificate another authority issued
        /// is refused as misconfigured (retrying will not mend it), not connected to.
        @Test func sslrootcertVerifiesAgainstAPrivateAuthority() async throws {
            try await PostgresTestCluster.withCluster { cluster in
                let authority = try await cluster.enableTLS()
                let store = try await Self.roundTrip("postgres://authkit@127.0.0.1:\(cluster.port)/postgres?sslrootcert=\(authority.path)")
                #expect(try await Self.value(store, "SELECT ssl::text FROM pg_stat_ssl WHERE pid = pg_backend_pid()") == "true")
                await store.close()
                let verifyCA = try await Self.roundTrip("postgres://authkit@localhost:\(cluster.port)/postgres?sslmode=verify-ca&sslrootcert=\(authority.path)")
                await verifyCA.close()

                let stranger = try await PostgresTestCluster.makeCertificateAuthority(in: cluster.directory.appendingPathComponent("stranger"))
                let configuration = try #require(try PostgresCredentialStore.configuration(url: "postgres://authkit@127.0.0.1:\(cluster.port)/postgres?sslrootcert=\(stranger.path)"))
                do {
                    let store = try await PostgresCredentialStore.open(configuration: configuration, options: .init(operationTimeout: .seconds(3), changeFeed: nil))
                    await store.close()
                    Issue.record("a server whose certificate another authority issued was connected to")
                } catch let error as CredentialStoreError {
                    #expect(error.code == .misconfigured, "\(error)")
                }
            }
        }
    }
}
