// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthOpenAPI
import AuthSigning
import AuthTestServer
import AuthTestServerAPI
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Synchronization
import Testing

/// The adapters' handling of URLs, bodies and the chain, as pure logic: in-process transports on
/// both sides, no network.
@Suite struct OpenAPIMessageTests {
    static let me = Data(#"{"user_id":"u-1","username":"alice","guest":false}"#.utf8)

    /// An OpenAPI transport that records what it is asked and answers with `answer`.
    final class RecordingTransport: ClientTransport {
        let calls = Mutex<[(HTTPRequest, URL)]>([])
        let answer: @Sendable (Int) async throws -> (HTTPResponse, HTTPBody?)
        init(_ answer: @escaping @Sendable (Int) async throws -> (HTTPResponse, HTTPBody?) = { _ in (HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]), HTTPBody(OpenAPIMessageTests.me)) }) {
            self.answer = answer
        }
        func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
            let number = calls.withLock { $0.append((request, baseURL)); return $0.count }
            return try await answer(number)
        }
    }

    /// An AuthKit client whose own transport must not be used (the middleware adapter's).
    static func pipeline(_ middlewares: [any Middleware]) -> AuthClient {
        AuthClient(transport: ClosureTransport { _ in throw AuthError.invalidRequest("the AuthKit transport was used") }, middlewares: middlewares)
    }

    /// What an OpenAPI transport sends for a base URL and an operation path: the base URL's path
    /// followed by the operation's, as AsyncHTTPClientTransport and URLSessionTransport join them.
    static func joined(_ baseURL: URL, _ path: String?) -> String { baseURL.absoluteString + (path ?? "") }

    @Test(arguments: ["https://api.example.com/v1", "https://api.example.com/v1/"])
    func aServerURLWithAPathPrefixesTheOperationsPath(_ server: String) async throws {
        let seen = Mutex<[AuthRequest]>([])
        let authKit = AuthClient(transport: ClosureTransport { request in
            seen.withLock { $0.append(request) }
            return AuthResponse(status: .ok, headerFields: [.contentType: "application/json"], body: Self.me)
        })
        let api = Client(serverURL: URL(string: server)!, transport: AuthClientTransport(authKit))
        #expect(try await api.getMe().ok.body.json.username == "alice")
        let sent = try #require(seen.withLock { $0.first })
        #expect(sent.head.scheme == "https" && sent.head.authority == "api.example.com" && sent.head.path == "/v1/me")

        // The middleware adapter hands the rest of the chain the client's own server URL and path.
        let recording = RecordingTransport()
        let chained = Client(serverURL: URL(string: server)!, transport: recording, middlewares: [
            AuthOpenAPIMiddleware(Self.pipeline([HeadersMiddleware([.userAgent: "authkit-test"])])),
        ])
        #expect(try await chained.getMe().ok.body.json.username == "alice")
        let (request, baseURL) = try #require(recording.calls.withLock { $0.first })
        #expect(request.path == "/me" && Self.joined(baseURL, request.path) == "https://api.example.com/v1/me", "what is sent is what AuthKit built and would sign")
        #expect(request.headerFields[.userAgent] == "authkit-test")
    }

    /// A request body streamed in chunks of unknown total length reaches the rest of the chain
    /// whole, with a signature over exactly those bytes (what is signed is what is sent).
    @Test func aStreamedBodyIsSentWholeAndSignedAsSent() async throws {
        let chunks: [ArraySlice<UInt8>] = [ArraySlice("{\"username\":".utf8), ArraySlice(" \"alice\", ".utf8), ArraySlice("\"password\": \"pw\"}".utf8)]
        let streamed = HTTPBody(AsyncThrowingStream { continuation in
            for chunk in chunks { continuation.yield(chunk) }
            continuation.finish()
        }, length: .unknown)
        let signer = HMACRequestSigner(keyID: SignedTestKeys.hmacKeyID, key: SignedTestKeys.hmacSecret)
        let signing = ClosureMiddleware { request, next in
            var request = request
            try await signer.sign(&request, at: Date())
            return try await next(request)
        }
        let middleware = AuthOpenAPIMiddleware(Self.pipeline([signing]))
        let sent = Mutex<AuthRequest?>(nil)
        let request = HTTPRequest(method: .post, scheme: nil, authority: nil, path: "/auth/register", headerFields: [.contentType: "application/json"])
        let (response, _) = try await middleware.intercept(request, body: streamed, baseURL: URL(string: "https://api.example.com/v1")!, operationID: "register") { request, body, baseURL in
            var bytes = Data()
            if let body {
                for try await chunk in body { bytes.append(contentsOf: chunk) }
            }
            let url = try #require(URL(string: Self.joined(baseURL, request.path)))
            sent.withLock { $0 = try? AuthRequest(method: request.method, url: url, headerFields: request.headerFields, body: bytes) }
            return (HTTPResponse(status: .created), nil)
        }
        #expect(response.status == .created)
        let received = try #require(sent.withLock { $0 })
        #expect(received.body == Data(chunks.joined()))
        #expect(received.url?.absoluteString == "https://api.example.com/v1/auth/register")
        let verifier = HMACRequestVerifier { _ in SignedTestKeys.hmacSecret }
        #expect(try await verifier.verify(received) == SignedTestKeys.hmacKeyID)
    }

    /// A redirect AuthKit follows to another origin goes there: that origin as the base URL.
    @Test func aRedirectElsewhereGoesToThatOrigin() async throws {
        let recording = RecordingTransport { number in
            if number == 1 { return (HTTPResponse(status: .found, headerFields: [.location: "https://other.example.com/elsewhere?q=1"]), nil) }
            return (HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]), HTTPBody(Self.me))
        }
        let api = Client(serverURL: URL(string: "https://api.example.com/v1")!, transport: recording, middlewares: [
            AuthOpenAPIMiddleware(Self.pipeline([RedirectMiddleware()])),
        ])
        #expect(try await api.getMe().ok.body.json.username == "alice")
        let calls = recording.calls.withLock { $0 }
        try #require(calls.count == 2)
        #expect(calls[1].1.absoluteString == "https://other.example.com" && calls[1].0.path == "/elsewhere?q=1")
    }

    @Test func headAnd204AnswersHaveNoBody() async throws {
        let authKit = AuthClient(transport: ClosureTransport { request in
            request.head.method == .head ? AuthResponse(status: .ok) : AuthResponse(status: .noContent)
        })
        let transport = AuthClientTransport(authKit)
        let base = URL(string: "https://api.example.com")!
        let head = try await transport.send(HTTPRequest(method: .head, scheme: nil, authority: nil, path: "/a"), body: nil, baseURL: base, operationID: "head")
        let noContent = try await transport.send(HTTPRequest(method: .delete, scheme: nil, authority: nil, path: "/a"), body: nil, baseURL: base, operationID: "delete")
        #expect(head.0.status == .ok && head.1 == nil)
        #expect(noContent.0.status == .noContent && noContent.1 == nil)
    }

    /// A response body over the middleware's limit is `.responseTooLarge`, which AuthKit's retry
    /// middleware does not send again (a `.transport` error of a `GET` would be: the body
    /// downloaded once per attempt).
    @Test func aResponseBodyOverTheLimitIsTooLargeAndNotSentAgain() async throws {
        let recording = RecordingTransport { _ in (HTTPResponse(status: .ok), HTTPBody(Data(repeating: 7, count: 64))) }
        let api = Client(serverURL: URL(string: "https://api.example.com")!, transport: recording, middlewares: [
            AuthOpenAPIMiddleware(Self.pipeline([RetryMiddleware(random: { 0 })]), maxResponseBytes: 16),
        ])
        let error = await #expect(throws: ClientError.self) { try await api.getMe() }
        #expect((error?.underlyingError as? AuthError)?.code == .responseTooLarge)
        #expect(recording.calls.withLock { $0.count } == 1)
    }

    /// A request's own ``RequestOptions/maxResponseBytes``, set by a middleware of the AuthKit
    /// client, bounds the body read from the rest of the chain when it is the lower limit.
    @Test func aRequestsOwnResponseLimitIsHonoured() async throws {
        let recording = RecordingTransport()
        let limit = ClosureMiddleware { request, next in
            var request = request
            request.options.maxResponseBytes = 8
            return try await next(request)
        }
        let api = Client(serverURL: URL(string: "https://api.example.com")!, transport: recording, middlewares: [
            AuthOpenAPIMiddleware(Self.pipeline([limit])),
        ])
        let error = await #expect(throws: ClientError.self) { try await api.getMe() }
        #expect((error?.underlyingError as? AuthError)?.code == .responseTooLarge)
        #expect(recording.calls.withLock { $0.count } == 1)
    }

    /// A middleware that calls `next` from a task of its own and returns before it ends: the
    /// adapter's call waits for that call (the generated client's `next` is not escaping and may
    /// not be used after the call returns), instead of trapping or using it late.
    @Test func aCallOfNextFromATaskIsWaitedFor() async throws {
        let log = Mutex<[String]>([])
        let (entered, enter) = AsyncStream<Void>.makeStream()
        let recording = RecordingTransport { _ in
            log.withLock { $0.append("transport started") }
            enter.yield()
            try await Task.sleep(for: .milliseconds(100))
            log.withLock { $0.append("transport ended") }
            return (HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]), HTTPBody(Self.me))
        }
        struct Detached: Middleware {
            let entered: AsyncStream<Void>
            nonisolated(nonsending) func intercept(_ request: AuthRequest, next: Next) async throws -> AuthResponse {
                Task { _ = try? await next(request) }
                for await _ in entered { break }
                return AuthResponse(status: .ok, headerFields: [.contentType: "application/json"], body: OpenAPIMessageTests.me)
            }
        }
        let api = Client(serverURL: URL(string: "https://api.example.com")!, transport: recording, middlewares: [
            AuthOpenAPIMiddleware(Self.pipeline([Detached(entered: entered)])),
        ])
        #expect(try await api.getMe().ok.body.json.username == "alice")
        log.withLock { $0.append("call returned") }
        #expect(log.withLock { $0 } == ["transport started", "transport ended", "call returned"])
    }

    @Test func aServerURLEndingInASlashSendsWhatAuthKitBuilt() async throws {
        let recording = RecordingTransport()
        let api = Client(serverURL: URL(string: "https://api.example.com/")!, transport: recording, middlewares: [AuthOpenAPIMiddleware(Self.pipeline([]))])
        _ = try await api.getMe().ok
        let (request, baseURL) = try #require(recording.calls.withLock { $0.first })
        #expect(Self.joined(baseURL, request.path) == "https://api.example.com/me")
    }

    @Test func aServerURLWithUserInformationIsRefused() async throws {
        let recording = RecordingTransport()
        let api = Client(serverURL: URL(string: "https://user:secret@api.example.com")!, transport: recording, middlewares: [AuthOpenAPIMiddleware(Self.pipeline([]))])
        let error = await #expect(throws: ClientError.self) { try await api.getMe() }
        #expect((error?.underlyingError as? AuthError)?.code == .invalidRequest)
        #expect(recording.calls.withLock { $0.isEmpty })
    }

    /// An error of the OpenAPI transport that prints the URL (a query key in it) is kept under
    /// the `AuthError`, which shows its type only.
    @Test func aTransportErrorThatPrintsTheURLShowsNoSecret() async throws {
        struct PrintsURL: Error, CustomStringConvertible {
            var description: String { "GET https://api.example.com/me?api_key=SECRET-123 failed" }
        }
        let recording = RecordingTransport { _ in throw PrintsURL() }
        let api = Client(serverURL: URL(string: "https://api.example.com")!, transport: recording, middlewares: [AuthOpenAPIMiddleware(Self.pipeline([]))])
        let error = await #expect(throws: ClientError.self) { try await api.getMe() }
        let authError = try #require(error?.underlyingError as? AuthError)
        #expect(authError.code == .transport)
        #expect((authError.underlying as? OpenAPIChainFailure)?.error is PrintsURL)
        for text in ["\(authError)", String(reflecting: authError), authError.message] {
            #expect(!text.contains("SECRET-123"))
        }
    }
}
