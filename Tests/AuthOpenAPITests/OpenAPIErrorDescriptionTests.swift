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
import HTTPTypes
import OpenAPIRuntime
import Synchronization
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

    /// A `logIn` cancelled while it is being sent, through either adapter: it ends as cancelled
    /// (the `ClientError`'s `underlyingError` is `CancellationError`), in the adapter's own
    /// short error; a generated client's own would print the operation's input, password and all.
    @Test(arguments: Adapter.allCases)
    func aCancelledLogInIsCancellationAndDoesNotPrintThePassword(_ adapter: Adapter) async throws {
        struct Cancelled: Error {}
        let password = "a password that must stay out of logs"
        let server = try #require(URL(string: "https://api.example.com"))
        let (entered, enter) = AsyncStream<Void>.makeStream()
        let api = switch adapter {
        case .transport:
            // AuthKit's transport reports the cancellation as `CancellationError`.
            Client(serverURL: server, transport: AuthClientTransport(AuthClient(transport: ClosureTransport { _ in
                enter.yield()
                try await Task.sleep(for: .seconds(30))
                return AuthResponse(status: .ok)
            })))
        case .middleware:
            // The OpenAPI transport reports it its own way, inside the generated client's error.
            Client(serverURL: server, transport: OpenAPIMessageTests.RecordingTransport { _ in
                enter.yield()
                do { try await Task.sleep(for: .seconds(30)) } catch { throw Cancelled() }
                return (HTTPResponse(status: .ok), nil)
            }, middlewares: [AuthOpenAPIMiddleware(OpenAPIMessageTests.pipeline([]))])
        }
        let call = Task { try await api.logIn(body: .json(.init(username: "alice", password: password))) }
        for await _ in entered { break }
        call.cancel()
        guard case .failure(let thrown) = await call.result else {
            Issue.record("the cancelled call succeeded")
            return
        }
        let error = try #require(thrown as? ClientError, "\(type(of: thrown))")
        #expect(error.underlyingError is CancellationError, "\(type(of: error.underlyingError))")
        #expect(error.operationID == "logIn")
        for text in ["\(thrown)", String(reflecting: thrown), thrown.localizedDescription] {
            #expect(!text.contains(password), "\(text)")
        }
    }

    /// A request body whose stream fails, with an error that quotes the body: either adapter
    /// throws its own `ClientError`, over `AuthError.transport` and an `OpenAPIChainFailure`
    /// that names the error's type only, and sends nothing.
    @Test(arguments: Adapter.allCases)
    func aFailingRequestBodyIsTheAdaptersOwnErrorAndShowsNoSecret(_ adapter: Adapter) async throws {
        let password = "a password that must stay out of logs"
        struct QuotesTheBody: Error, CustomStringConvertible {
            let password: String
            var description: String { #"the stream broke after {"password":"\#(password)""# }
        }
        let body = HTTPBody(AsyncThrowingStream<ArraySlice<UInt8>, any Error> { $0.finish(throwing: QuotesTheBody(password: password)) }, length: .unknown)
        let request = HTTPRequest(method: .post, scheme: nil, authority: nil, path: "/auth/login", headerFields: [.contentType: "application/json"])
        let server = try #require(URL(string: "https://api.example.com"))
        let recording = OpenAPIMessageTests.RecordingTransport()
        let pipeline = OpenAPIMessageTests.pipeline([])
        let thrown = await #expect(throws: (any Error).self) {
            switch adapter {
            case .transport:
                _ = try await AuthClientTransport(pipeline).send(request, body: body, baseURL: server, operationID: "logIn")
            case .middleware:
                _ = try await AuthOpenAPIMiddleware(pipeline).intercept(request, body: body, baseURL: server, operationID: "logIn") { request, body, baseURL in
                    try await recording.send(request, body: body, baseURL: baseURL, operationID: "logIn")
                }
            }
        }
        let error = try #require(thrown as? ClientError, "\(thrown.map { "\(type(of: $0))" } ?? "-")")
        let underlying = try #require(error.underlyingError as? AuthError)
        #expect(underlying.code == .transport)
        #expect((underlying.underlying as? OpenAPIChainFailure)?.error is QuotesTheBody)
        for text in ["\(error)", String(reflecting: error), error.localizedDescription] {
            #expect(!text.contains(password), "\(text)")
        }
        #expect(recording.calls.withLock { $0.isEmpty })
    }
}
