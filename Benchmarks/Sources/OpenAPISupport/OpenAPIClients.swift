// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

// The generated clients the OpenAPI suite and openapi-driver compare: one through a header-only
// ClientMiddleware (what an app writes without AuthKit), one through AuthOpenAPIMiddleware, both
// ending at a ClientTransport that reads the request body and answers at once.
public import AuthTestServerAPI
import AuthCore
import AuthOpenAPI
import Foundation
import HTTPTypes
import OpenAPIRuntime

let serverURL = URL(string: "https://api.example.com")!
let token = "access-token-0123456789abcdef"

/// Reads the request body (as a transport writing it would) and answers `getMe` with its 200
/// body, `register` with its 201 body.
struct InstantTransport: ClientTransport {
    static let me = Array(#"{"user_id":"u-1","username":"alice","guest":false}"#.utf8)
    static let registered = Array(#"{"user_id":"u-1"}"#.utf8)
    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        var sent = 0
        if let body {
            for try await chunk in body { sent += chunk.count }
        }
        withExtendedLifetime(sent) {}
        if operationID == "register" {
            return (HTTPResponse(status: .created, headerFields: [.contentType: "application/json"]), HTTPBody(Self.registered))
        }
        return (HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]), HTTPBody(Self.me))
    }
}

/// What an app writes without AuthKit: a middleware that puts a fixed bearer token on.
struct BearerHeaderMiddleware: ClientMiddleware {
    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        request.headerFields[.authorization] = "Bearer \(token)"
        return try await next(request, body, baseURL)
    }
}

/// The two generated clients of a comparison.
public struct OpenAPIClients: Sendable {
    /// Through the header-only middleware.
    public let plain: Client
    /// Through AuthOpenAPIMiddleware.
    public let measured: Client

    /// `register`'s body: 1,024 bytes of JSON as the generated client encodes it (sorted keys,
    /// pretty-printed: 45 bytes around the password).
    public static let kibibyteCredentials = Components.Schemas.Credentials(username: "alice", password: String(repeating: "p", count: 1_024 - 45))

    /// The clients; AuthOpenAPIMiddleware runs a signed-in session's authentication middleware,
    /// after redirect, retry and headers middlewares when `standard`.
    public init(standard: Bool) async throws {
        let account = AccountKey(namespace: "bench", account: "alice")
        let strategy = BearerStrategy(allowedHosts: AllowedHosts(["api.example.com"])) { $0 }
        let session = AccountSession(account: account, strategy: strategy, vault: CredentialVault(store: InMemoryCredentialStore()))
        try await session.signIn(BearerTokenSet(accessToken: token, refreshToken: "refresh", expiresAt: Date().addingTimeInterval(3 * 3600)))
        let others: [any Middleware] = standard ? [RedirectMiddleware(), RetryMiddleware(), HeadersMiddleware([.userAgent: "bench"])] : []
        let client = AuthClient(transport: ClosureTransport { _ in AuthResponse(status: .internalServerError) }, middlewares: others + [
            AuthenticationMiddleware(session: session),
        ])
        plain = Client(serverURL: serverURL, transport: InstantTransport(), middlewares: [BearerHeaderMiddleware()])
        measured = Client(serverURL: serverURL, transport: InstantTransport(), middlewares: [AuthOpenAPIMiddleware(client)])
    }
}
