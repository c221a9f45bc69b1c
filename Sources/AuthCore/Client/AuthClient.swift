// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Foundation
public import HTTPTypes

/// A transport plus an ordered list of middlewares; the first middleware is the outermost.
///
/// ```swift
/// let client = AuthClient(transport: transport, middlewares: [RetryMiddleware(), LoggingMiddleware(logger: logger)])
/// let me = try await client.json(Profile.self, .get, URL(string: "https://api.example.com/me")!)
/// ```
///
/// A request goes through the middlewares in order, each calling the next through its `next`
/// (see ``Middleware``), and the last one's `next` sends it through the transport; the response
/// comes back the same way.
public struct AuthClient: Sendable {
    /// What sends requests at the end of the pipeline.
    public let transport: any Transport
    /// The middlewares, outermost first.
    public let middlewares: [any Middleware]
    /// The first place of the middlewares in front of the transport.
    private let pipeline: MiddlewareNext

    /// Creates a client.
    public init(transport: any Transport, middlewares: [any Middleware] = []) {
        self.transport = transport
        self.middlewares = middlewares
        self.pipeline = MiddlewareNext(Pipeline(middlewares, ending: transport), at: 0)
    }

    /// Sends a request through every middleware and the transport.
    ///
    /// The pipeline runs on the caller's executor until something in it suspends (see
    /// ``Middleware``).
    public nonisolated(nonsending) func send(_ request: AuthRequest) async throws -> AuthResponse {
        try await pipeline(request)
    }

    /// Sends a request built from its parts.
    public nonisolated(nonsending) func send(_ method: HTTPRequest.Method, _ url: URL, headerFields: HTTPFields = HTTPFields(), body: Data = Data(), options: RequestOptions = .init()) async throws -> AuthResponse {
        try await send(AuthRequest(method: method, url: url, headerFields: headerFields, body: body, options: options))
    }

    /// Sends a request and decodes a 2xx JSON body.
    /// - Throws: `AuthError` `.httpStatus` carrying the status and body for a non-2xx answer,
    ///   `.decoding` when the body is not the expected JSON.
    public nonisolated(nonsending) func json<T: Decodable>(_ type: T.Type, _ request: AuthRequest, decoder: JSONDecoder = JSONDecoder()) async throws -> T {
        var request = request
        if request.head.headerFields[.accept] == nil { request.head.headerFields[.accept] = "application/json" }
        let response = try await send(request)
        return try Self.decode(type, from: response, decoder: decoder)
    }

    /// Sends a request built from its parts and decodes a 2xx JSON body.
    public nonisolated(nonsending) func json<T: Decodable>(_ type: T.Type, _ method: HTTPRequest.Method, _ url: URL, body: Data = Data(), headerFields: HTTPFields = HTTPFields()) async throws -> T {
        try await json(type, AuthRequest(method: method, url: url, headerFields: headerFields, body: body))
    }

    /// Decodes a 2xx JSON body or throws an error carrying status and body.
    public static func decode<T: Decodable>(_ type: T.Type, from response: AuthResponse, decoder: JSONDecoder = JSONDecoder()) throws -> T {
        let status = response.status.code
        guard (200..<300).contains(status) else {
            throw AuthError(code: .httpStatus, message: "the server answered \(status) \(response.status.reasonPhrase)", status: status, responseBody: Array(response.body))
        }
        do {
            return try decoder.decode(T.self, from: response.body)
        } catch {
            let failure = DecodingFailure(error)
            throw AuthError(code: .decoding, message: "the response body is not the expected JSON: \(failure)", status: status, responseBody: Array(response.body), underlying: failure)
        }
    }
}
