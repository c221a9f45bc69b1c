public import Foundation
public import HTTPTypes

/// A transport plus an ordered list of middlewares; the first middleware is the outermost.
///
/// ```swift
/// let client = AuthClient(transport: transport, middlewares: [RetryMiddleware(), LoggingMiddleware(logger: logger)])
/// let me = try await client.json(Profile.self, .get, URL(string: "https://api.example.com/me")!)
/// ```
public struct AuthClient: Sendable {
    /// What sends requests at the end of the pipeline.
    public let transport: any Transport
    /// The middlewares, outermost first.
    public let middlewares: [any Middleware]

    /// Creates a client.
    public init(transport: any Transport, middlewares: [any Middleware] = []) {
        self.transport = transport
        self.middlewares = middlewares
    }

    /// Sends a request through every middleware and the transport.
    public func send(_ request: AuthRequest) async throws -> AuthResponse {
        try await run(request, from: 0)
    }

    @inline(__always)
    private func run(_ request: AuthRequest, from index: Int) async throws -> AuthResponse {
        guard index < middlewares.count else { return try await transport.send(request) }
        return try await middlewares[index].intercept(request) { next in
            try await self.run(next, from: index + 1)
        }
    }

    /// Sends a request built from its parts.
    public func send(_ method: HTTPRequest.Method, _ url: URL, headerFields: HTTPFields = [:], body: Data = Data(), options: RequestOptions = .init()) async throws -> AuthResponse {
        try await send(AuthRequest(method: method, url: url, headerFields: headerFields, body: body, options: options))
    }

    /// Sends a request and decodes a 2xx JSON body.
    /// - Throws: `AuthError` `.httpStatus` carrying the status and body for a non-2xx answer,
    ///   `.decoding` when the body is not the expected JSON.
    public func json<T: Decodable>(_ type: T.Type, _ request: AuthRequest, decoder: JSONDecoder = JSONDecoder()) async throws -> T {
        var request = request
        if request.head.headerFields[.accept] == nil { request.head.headerFields[.accept] = "application/json" }
        let response = try await send(request)
        return try Self.decode(type, from: response, decoder: decoder)
    }

    /// Sends a request built from its parts and decodes a 2xx JSON body.
    public func json<T: Decodable>(_ type: T.Type, _ method: HTTPRequest.Method, _ url: URL, body: Data = Data(), headerFields: HTTPFields = [:]) async throws -> T {
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
