public import AuthCore
public import Foundation
public import HTTPTypes
public import OpenAPIRuntime

/// A `ClientMiddleware` that runs an AuthKit client's middlewares (authentication, renewal,
/// signing, retries, redirects, cookies, …) around the rest of a generated client's chain, for
/// an app that keeps its own OpenAPI transport.
///
/// ```swift
/// let api = Client(serverURL: server.baseURL, transport: openAPITransport, middlewares: [AuthOpenAPIMiddleware(client)])
/// ```
///
/// The AuthKit client's own transport is not used: where it would send, the request goes on to
/// the next OpenAPI middleware or the transport, as an origin base URL and an absolute path (a
/// redirect to another origin followed by AuthKit goes there), `Cookie` fields joined for
/// HTTP/1.1. A retry or a redirect calls the rest of the chain again. Bodies are read whole, at
/// most ``maxRequestBytes`` and ``maxResponseBytes``. Errors reach the caller as a `ClientError`
/// whose `underlyingError` is the `AuthError`.
public struct AuthOpenAPIMiddleware: ClientMiddleware {
    /// The middlewares that run, linked once, ahead of the OpenAPI chain.
    private let pipeline: AuthClient
    /// The largest request body sent; a larger one fails with `AuthError.invalidRequest`.
    public let maxRequestBytes: Int
    /// The largest response body read from the rest of the chain; a larger one fails with
    /// `AuthError.transport`.
    public let maxResponseBytes: Int

    /// A middleware that runs `client`'s middlewares.
    public init(_ client: AuthClient, maxRequestBytes: Int = 16 << 20, maxResponseBytes: Int = 16 << 20) {
        pipeline = AuthClient(transport: OpenAPIChainTransport(), middlewares: client.middlewares)
        self.maxRequestBytes = maxRequestBytes
        self.maxResponseBytes = maxResponseBytes
    }

    /// A middleware that runs the middlewares of `account`'s client.
    public init<Strategy>(_ account: AccountClient<Strategy>, maxRequestBytes: Int = 16 << 20, maxResponseBytes: Int = 16 << 20) {
        self.init(account.client, maxRequestBytes: maxRequestBytes, maxResponseBytes: maxResponseBytes)
    }

    /// Runs the AuthKit middlewares, which send through `next`.
    public func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let outgoing = try await OpenAPIMessages.authRequest(request, body: body, baseURL: baseURL, maxBytes: maxRequestBytes)
        let response = try await OpenAPIChainTransport.withChain(next, maxResponseBytes: maxResponseBytes) {
            try await pipeline.send(outgoing)
        }
        return OpenAPIMessages.openAPIResponse(response, method: request.method)
    }
}
