// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthOpenAPI
import AuthTestServer
import AuthTestServerAPI
import Foundation
import OpenAPIRuntime
import Testing

/// Issue 53: what a user sees printing the `ClientError` a generated client throws for an
/// AuthKit error: the cause and the operation, short, and no secret (a generated client's own
/// `ClientError` prints the operation's input and request, about 700 characters for a `GET`, and
/// a `logIn`'s password).
@Suite struct OpenAPIErrorDescriptionTests {
    /// The whole description of an adapter's `ClientError` over `underlying`.
    static func expected(_ underlying: AuthError, operationID: String) -> String {
        "Client error - cause description: 'AuthKit: \(underlying.code)', underlying error: \(underlying), "
            + "operationID: \(operationID), operationInput: not shown, request: <nil>, requestBody: <nil>, "
            + "baseURL: <nil>, response: <nil>, responseBody: <nil>"
    }

    @Test(arguments: Adapter.allCases)
    func aRejectedRenewalPrintsItsCauseAndTheOperation(_ adapter: Adapter) async throws {
        try await OpenAPIFixture.with(adapter) { f in
            _ = await f.server.revokeRefreshTokens(username: "alice")
            f.server.clock.advance(by: 301)
            let thrown = await #expect(throws: ClientError.self) { try await f.api.getMe() }
            let error = try #require(thrown)
            let underlying = try #require(error.underlyingError as? AuthError)
            #expect(underlying.code == .reauthenticationRequired)
            let text = "\(error)"
            #expect(text == Self.expected(underlying, operationID: "getMe"))
            // The AuthError's own description and the runtime's fixed frame (about 230 characters).
            #expect(text.count <= "\(underlying)".count + 250, "\(text.count) characters: \(text)")
            #expect(!text.contains(f.tokens.accessToken.reveal))
            #expect(!text.contains(f.tokens.refreshToken?.reveal ?? "-"))
        }
    }

    /// A `logIn` that cannot reach its server: the description names the transport failure and
    /// not the password the operation's input holds.
    @Test(arguments: Adapter.allCases)
    func aFailedLogInDoesNotPrintThePassword(_ adapter: Adapter) async throws {
        try await OpenAPIFixture.with(adapter) { f in
            let closed = try #require(URL(string: "http://127.0.0.1:1"))
            let api = switch adapter {
            case .transport: Client(serverURL: closed, transport: AuthClientTransport(f.account))
            case .middleware: Client(serverURL: closed, transport: f.openAPITransport, middlewares: [AuthOpenAPIMiddleware(f.account)])
            }
            let password = "a password that must stay out of logs"
            let thrown = await #expect(throws: ClientError.self) {
                try await api.logIn(body: .json(.init(username: "alice", password: password)))
            }
            let error = try #require(thrown)
            let underlying = try #require(error.underlyingError as? AuthError)
            #expect(underlying.code == .transport)
            let text = "\(error)"
            #expect(text == Self.expected(underlying, operationID: "logIn"))
            #expect(!text.contains(password))
            #expect(!String(reflecting: error).contains(password))
            #expect(!error.localizedDescription.contains(password))
        }
    }
}
