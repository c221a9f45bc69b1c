// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AsyncHTTPClient
import AuthCore
import AuthHTTPClient
import AuthOAuth2
import AuthOpenAPI
import AuthTestServer
import AuthTestServerAPI
import Foundation
import OpenAPIAsyncHTTPClient
import Testing

/// How the generated client reaches AuthKit.
enum Adapter: String, CaseIterable, CustomTestStringConvertible {
    /// `AuthClientTransport`: the generated client sends through the AuthKit client.
    case transport
    /// `AuthOpenAPIMiddleware` ahead of the standard `AsyncHTTPClientTransport`.
    case middleware

    var testDescription: String { rawValue }
}

/// A running AuthTestServer, alice registered and signed in to an AuthKit client, and a
/// generated client (`Client`) that goes through that AuthKit client by `adapter`.
struct OpenAPIFixture {
    static let alice = AccountKey(namespace: "testserver", account: "alice")
    static let password = "correct horse battery staple"

    let server: AuthTestServer
    let account: AccountClient<BearerStrategy>
    /// The generated client through AuthKit.
    let api: Client
    /// The generated client over the OpenAPI transport alone, no AuthKit.
    let plain: Client
    /// The standard OpenAPI transport over AsyncHTTPClient (redirects not followed).
    let openAPITransport: AsyncHTTPClientTransport
    let tokens: BearerTokenSet

    /// Runs `body` with a fixture; `configure` adds to the container before the client is made.
    static func with(
        _ adapter: Adapter,
        configure: (AuthContainer, AuthTestServer) -> Void = { _, _ in },
        _ body: (OpenAPIFixture) async throws -> Void
    ) async throws {
        try await AuthTestServer.withRunning { server in
            try await HTTPClientTransport.withTransport { transport in
                let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: HTTPClientTransport.defaultConfiguration)
                do {
                    try await run(adapter, server: server, transport: transport, http: http, configure: configure, body)
                    try await http.shutdown()
                } catch {
                    try? await http.shutdown()
                    throw error
                }
            }
        }
    }

    private static func run(
        _ adapter: Adapter, server: AuthTestServer, transport: HTTPClientTransport, http: HTTPClient,
        configure: (AuthContainer, AuthTestServer) -> Void, _ body: (OpenAPIFixture) async throws -> Void
    ) async throws {
        let openAPITransport = AsyncHTTPClientTransport(configuration: .init(client: http))
        let plain = Client(serverURL: server.baseURL, transport: openAPITransport)
        let credentials = Components.Schemas.Credentials(username: "alice", password: password)
        _ = try await plain.register(body: .json(credentials)).created
        let login = try await plain.logIn(body: .json(credentials)).ok.body.json
        let tokens = BearerTokenSet(
            accessToken: login.accessToken, refreshToken: login.refreshToken,
            expiresAt: server.clock.now().addingTimeInterval(TimeInterval(login.expiresIn))
        )

        let container = AuthContainer()
        container.useHTTPClient(transport)
        configure(container, server)
        let refresher = OAuth2RefreshTokenRefresher(tokenEndpoint: server.baseURL.appending(path: "auth/refresh"), clientID: "app", transport: transport)
        let strategy = BearerStrategy(allowedHosts: AllowedHosts(origin: server.baseURL), refresher: refresher)
        let account = container.makeClient(for: alice, strategy: strategy)
        try await account.signIn(tokens)

        let api = switch adapter {
        case .transport: Client(serverURL: server.baseURL, transport: AuthClientTransport(account))
        case .middleware: Client(serverURL: server.baseURL, transport: openAPITransport, middlewares: [AuthOpenAPIMiddleware(account)])
        }
        try await body(OpenAPIFixture(server: server, account: account, api: api, plain: plain, openAPITransport: openAPITransport, tokens: tokens))
    }
}
