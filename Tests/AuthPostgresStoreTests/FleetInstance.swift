// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCache
import AuthCore
import AuthHTTPClient
import AuthOAuth2
import AuthPostgresStore
import AuthTestServer
import AuthTesting
import Foundation
import PostgresNIO

/// One "machine" of a fleet in this process: its own pool, container, coordinator and session.
struct FleetInstance {
    let store: PostgresCredentialStore
    let client: AccountClient<BearerStrategy>
    let events: AuthEvents
    let container: AuthContainer

    static func make(_ cluster: PostgresTestCluster, server: AuthTestServer, transport: HTTPClientTransport, account: AccountKey, changeFeed: PostgresChangeFeedOptions? = .init(), operationTimeout: Duration = .seconds(10), credentialCache: Duration? = nil) async throws -> FleetInstance {
        try await make(configuration: PostgresSuites.PostgresCredentialStoreTests.configuration(cluster), server: server, transport: transport, account: account, changeFeed: changeFeed, operationTimeout: operationTimeout, credentialCache: credentialCache)
    }

    /// An instance whose store connects as `configuration` says (through a pooler, say).
    static func make(configuration: PostgresClient.Configuration, server: AuthTestServer, transport: HTTPClientTransport, account: AccountKey, changeFeed: PostgresChangeFeedOptions? = .init(), operationTimeout: Duration = .seconds(10), credentialCache: Duration? = nil) async throws -> FleetInstance {
        let container = AuthContainer()
        container.useHTTPClient(transport)
        let store = try await PostgresCredentialStore.open(configuration: configuration, options: PostgresStoreOptions(lockTimeout: .seconds(5), operationTimeout: operationTimeout, changeFeed: changeFeed))
        container.override(CredentialStoreKey.self, with: store)
        if let credentialCache { container.useCredentialCache(lifetime: credentialCache) }
        let refresher = OAuth2RefreshTokenRefresher(tokenEndpoint: server.baseURL.appending(path: "auth/refresh"), clientID: "fleet", transport: transport)
        let client = container.makeClient(for: account, strategy: BearerStrategy(allowedHosts: AllowedHosts(origin: server.baseURL), refresher: refresher))
        return FleetInstance(store: store, client: client, events: container[AuthEventsKey.self], container: container)
    }

    /// An instance of the same machine (pool, container) for another account.
    func other(_ account: AccountKey) -> FleetInstance {
        let strategy = client.session.strategy
        return FleetInstance(store: store, client: container.makeClient(for: account, strategy: strategy), events: events, container: container)
    }

    /// Registers `username` on the server and signs in with its password flow: fresh tokens.
    static func tokens(_ server: AuthTestServer, transport: HTTPClientTransport, username: String) async throws -> BearerTokenSet {
        let body = try JSONEncoder().encode(["username": username, "password": "correct horse battery staple"])
        _ = try await transport.send(AuthRequest(method: .post, url: server.baseURL.appending(path: "auth/register"), headerFields: [.contentType: "application/json"], body: body))
        let login = try await transport.send(AuthRequest(method: .post, url: server.baseURL.appending(path: "auth/login"), headerFields: [.contentType: "application/json"], body: body))
        return try TokenResponse.parse(login.body).tokenSet(issuedAt: server.clock.now())
    }

    /// The status of one request to `/me`, or the `AuthError` code it failed with.
    func me(_ server: AuthTestServer) async -> String {
        do {
            return "\(try await client.send(.get, server.baseURL.appending(path: "me")).status.code)"
        } catch let error as AuthError {
            return error.code.description
        } catch {
            return "\(type(of: error))"
        }
    }

    /// How long until requests to `/me` stop being sent (they fail with `notSignedIn`), polled
    /// every 20 ms up to `limit`, counted from `start`; nil when they are still sent then. `last`
    /// is the last outcome.
    func timeUntilSignedOut(_ server: AuthTestServer, since start: ContinuousClock.Instant = .now, limit: Duration = .seconds(10)) async -> (elapsed: Duration?, last: String) {
        let clock = ContinuousClock()
        var last = ""
        while clock.now - start < limit {
            last = await me(server)
            if last == AuthError.Code.notSignedIn.description { return (clock.now - start, last) }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return (nil, last)
    }
}
