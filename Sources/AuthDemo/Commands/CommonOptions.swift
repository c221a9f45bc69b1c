// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import ArgumentParser
import AuthCore
import AuthHTTPClient
import AuthOAuth2
import AuthPostgresStore
import AuthSQLiteStore
import Foundation
import HTTPTypes
import PostgresNIO

/// Where the subcommands keep credentials and which server they talk to.
struct CommonOptions: ParsableArguments {
    @Option(help: "The server's base URL.")
    var server: String = "http://127.0.0.1:8080"

    @Option(help: "The credential store: a SQLite file, or a postgres://user[:password]@host[:port]/database URL for one store shared by several machines.")
    var store: String = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".auth-demo/credentials.sqlite").path

    @Option(help: "The namespace accounts are kept under.")
    var namespace: String = "auth-demo"

    var baseURL: URL {
        get throws {
            guard let url = URL(string: server), url.host != nil else { throw ValidationError("--server must be an absolute URL") }
            return url
        }
    }

    /// The PostgreSQL connection `--store` names, when it is a `postgres://` URL.
    var postgresConfiguration: PostgresClient.Configuration? {
        get throws {
            do {
                return try PostgresCredentialStore.configuration(url: store)
            } catch let error as CredentialStoreError {
                throw ValidationError("--store: \(error.message)")
            }
        }
    }

    /// Runs `body` with a container on the store `--store` names and an HTTP transport.
    func withContainer<T>(_ body: (AuthContainer, HTTPClientTransport) async throws -> T) async throws -> T {
        let postgres = try postgresConfiguration
        if postgres == nil {
            try FileManager.default.createDirectory(at: URL(fileURLWithPath: store).deletingLastPathComponent(), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        return try await HTTPClientTransport.withTransport { transport in
            let container = AuthContainer()
            container.useHTTPClient(transport)
            if let postgres {
                let store = try await container.usePostgresStore(postgres)
                do {
                    let result = try await body(container, transport)
                    await store.close()
                    return result
                } catch {
                    await store.close()
                    throw error
                }
            }
            try await container.useSQLiteStore(at: store)
            return try await body(container, transport)
        }
    }

    /// A bearer strategy refreshing through the server's `/auth/refresh`.
    func bearer(_ transport: HTTPClientTransport) throws -> BearerStrategy {
        let base = try baseURL
        return BearerStrategy(
            allowedHosts: AllowedHosts(origin: base, allowInsecure: base.scheme == "http"),
            refresher: OAuth2RefreshTokenRefresher(tokenEndpoint: base.appending(path: "auth/refresh"), clientID: "auth-demo", transport: transport))
    }
}
