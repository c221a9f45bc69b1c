// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthHTTPClient
import AuthMFA
import AuthOAuth2
import AuthTestServer
import Foundation
import HTTPTypes

/// A running AuthTestServer on 127.0.0.1 and a real AsyncHTTPClient transport, shared by a test.
struct Harness {
    let server: AuthTestServer
    let transport: HTTPClientTransport

    var base: URL { server.baseURL }
    var hosts: AllowedHosts { AllowedHosts(origin: base) }

    /// Runs `body` with a fresh server and transport, stopping both afterwards.
    static func run<T>(configuration: AuthTestServer.Configuration = .init(), _ body: (Harness) async throws -> T) async throws -> T {
        try await AuthTestServer.withRunning(configuration: configuration) { server in
            try await HTTPClientTransport.withTransport { transport in
                try await body(Harness(server: server, transport: transport))
            }
        }
    }

    /// A bearer strategy that refreshes through the server's `/auth/refresh` (RFC 6749 §6).
    func bearer() -> BearerStrategy {
        BearerStrategy(allowedHosts: hosts, refresher: OAuth2RefreshTokenRefresher(tokenEndpoint: url("auth/refresh"), clientID: "integration-tests", transport: transport))
    }

    /// A container whose clients use this harness's transport and `store`.
    func container(store: any CredentialStore = InMemoryCredentialStore()) -> AuthContainer {
        let container = AuthContainer()
        container.useHTTPClient(transport)
        container.override(CredentialStoreKey.self, with: store)
        return container
    }

    func url(_ path: String) -> URL { base.appending(path: path) }

    /// Registers a user through the server's API.
    func register(_ username: String, password: String = "correct horse battery staple") async throws {
        let request = try AuthRequest(method: .post, url: url("auth/register"), headerFields: [.contentType: "application/json"], body: JSONEncoder().encode(["username": username, "password": password]))
        let response = try await transport.send(request)
        guard response.status.code == 201 else { throw AuthError(code: .httpStatus, message: "register answered \(response.status.code)", status: response.status.code) }
    }

    /// Signs a user in with the password flow and returns the tokens.
    func login(_ username: String, password: String = "correct horse battery staple", codes: (any MFACodeProvider)? = nil) async throws -> BearerTokenSet {
        try await PasswordSignIn(loginURL: url("auth/login"), verifyURL: url("auth/mfa/verify"), transport: transport, codeProvider: codes).signIn(username: username, password: password)
    }

    /// Registers and signs in `username` on a client of `container`.
    func signedInClient(_ username: String, container: AuthContainer, namespace: String = "testserver") async throws -> AccountClient<BearerStrategy> {
        try await register(username)
        let client = container.makeClient(for: AccountKey(namespace: namespace, account: username), strategy: bearer())
        try await client.signIn(try await login(username))
        return client
    }
}

/// The `/me` answer.
struct Me: Decodable, Equatable {
    let user_id: String?
    let username: String?
    let guest: Bool
    let device_id: String?
}
