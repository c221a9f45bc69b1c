// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

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
/// the next OpenAPI middleware or the transport, with the client's server URL and the
/// operation's path (or, after AuthKit followed a redirect to another origin, that origin and the
/// whole target), `Cookie` fields joined for HTTP/1.1. A retry or a redirect calls the rest of
/// the chain again; an error of the rest of the chain becomes `AuthError.transport` (retried for
/// idempotent methods). Bodies are read whole, at most ``maxRequestBytes`` and
/// ``maxResponseBytes``. Every error reaches the caller as the adapter's own `ClientError`,
/// whose `underlyingError` is the `AuthError`, or `CancellationError` when the call was
/// cancelled, with a short description (the cause and the operation's ID, not the operation's
/// input or request, which may hold secrets); an error that is not AuthKit's is
/// `AuthError.transport` over an ``OpenAPIChainFailure``, which shows its type only. A call of
/// the chain that a middleware makes from a task of its own is waited for before the
/// middleware's call returns (the chain's `next` may not be used after it).
///
/// Put it **last** in `middlewares`, so that no OpenAPI middleware after it sees the credential
/// (a logging middleware would print it), and give the client a transport that does **not**
/// follow redirects (AsyncHTTPClient: `redirectConfiguration = .disallow`; URLSession: a delegate
/// that refuses them): AuthKit's redirect middleware follows them and drops every secret on a
/// hop to another origin, which a transport's own redirect handling does not (AsyncHTTPClient
/// strips only the standard fields, not AuthKit's marked secrets or query keys). Where that cannot be arranged, use
/// ``AuthClientTransport``, which sends through AuthKit's transport. The response fields are
/// the OpenAPI transport's: `AsyncHTTPClientTransport` keeps only the last of repeated fields
/// such as `Set-Cookie`, so a cookie jar behind it sees one cookie per response.
///
/// The OpenAPI transport makes the connections, so what the AuthKit client's transport would
/// do for TLS does not happen: its certificate pins (AuthHTTPClient's `TransportTLS.pinning`)
/// are **not** checked, and its client certificates are not presented. A request whose bearer
/// token is bound to a client certificate (RFC 8705 `cnf.x5t#S256`, see
/// ``/AuthCore/CertificateBinding``) is therefore refused with `AuthError` code
/// `.certificateBindingUnmet`, and nothing is sent. For pinning or mutual TLS, use
/// ``AuthClientTransport`` over a transport that has them, or configure them on the OpenAPI
/// transport itself.
public struct AuthOpenAPIMiddleware: ClientMiddleware {
    /// The middlewares that run ahead of the OpenAPI chain.
    private let pipeline: AuthClient
    /// The largest request body sent; a larger one fails with `AuthError.invalidRequest`.
    public let maxRequestBytes: Int
    /// The largest response body read from the rest of the chain; a larger one, or one larger
    /// than the request's own ``/AuthCore/RequestOptions/maxResponseBytes``, fails with
    /// `AuthError` code `.responseTooLarge` (not retried).
    public let maxResponseBytes: Int

    /// A middleware that runs `client`'s middlewares; `client`'s transport is not used, nor are
    /// its certificate pins or client certificates.
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
    ///
    /// - Throws: The adapter's `ClientError` (see ``AuthOpenAPIMiddleware``), whatever failed.
    public func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        do {
            let base = try OpenAPIBase(baseURL)
            let outgoing = try await OpenAPIMessages.authRequest(request, body: body, base: base, maxBytes: maxRequestBytes)
            let response = try await OpenAPIChainTransport.withChain(next, base: base, maxResponseBytes: maxResponseBytes) {
                try await pipeline.send(outgoing)
            }
            return OpenAPIMessages.openAPIResponse(response, method: request.method)
        } catch {
            throw ClientError(adapting: error, operationID: operationID)
        }
    }
}
