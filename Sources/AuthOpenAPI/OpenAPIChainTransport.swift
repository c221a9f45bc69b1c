// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// The end of ``AuthOpenAPIMiddleware``'s pipeline: sends through the rest of the generated
/// client's chain (its `next`), found in a task-local ``OpenAPIChain`` for the duration of one
/// call of the middleware.
struct OpenAPIChainTransport: Transport {
    @TaskLocal static var current: OpenAPIChain?

    /// URLs made for the chain: a server URL without its trailing `/`, an origin after a redirect.
    let origins = OriginURLs()

    /// Runs `body` with `next` as the end of the pipeline; returns once every call of `next`
    /// that started has ended, so that `next` (not escaping) is never used after this returns.
    static func withChain<T>(
        _ next: OpenAPIChain.Next, base: OpenAPIBase, maxResponseBytes: Int, _ body: () async throws -> T
    ) async throws -> T {
        try await withoutActuallyEscaping(next) { next in
            let chain = OpenAPIChain(next, base: base, maxResponseBytes: maxResponseBytes)
            let result: Result<T, any Error>
            do {
                result = .success(try await $current.withValue(chain) { try await body() })
            } catch {
                result = .failure(error)
            }
            await chain.close()
            return try result.get()
        }
    }

    /// Sends `request` through the rest of the chain.
    /// - Throws: `AuthError` code `.certificateBindingUnmet` when the request carries a
    ///   certificate-bound bearer token (RFC 8705 `cnf.x5t#S256`): the OpenAPI transport cannot be
    ///   made to present the certificate, so nothing is sent (see `CertificateBinding`);
    ///   `.responseTooLarge` when the response body is larger than the middleware's
    ///   `maxResponseBytes` or the request's `RequestOptions.maxResponseBytes`.
    nonisolated(nonsending) func send(_ request: AuthRequest) async throws -> AuthResponse {
        guard let chain = Self.current else {
            throw AuthError.invalidRequest("AuthOpenAPIMiddleware's pipeline was called outside a call of the middleware")
        }
        if let authorization = request.head.headerFields[.authorization], CertificateBinding.requiredThumbprint(authorization: authorization) != nil {
            throw AuthError(
                code: .certificateBindingUnmet,
                message: "the bearer token is bound to a client certificate (cnf.x5t#S256), and AuthOpenAPIMiddleware cannot make the OpenAPI transport present one: nothing was sent; use AuthClientTransport over an HTTPClientTransport with the certificate"
            )
        }
        let (head, body, baseURL) = try OpenAPIMessages.openAPIRequest(request, base: chain.base, origins: origins)
        let (response, responseBody) = try await chain.forward(head, body, baseURL)
        let maxResponseBytes = min(chain.maxResponseBytes, request.options.maxResponseBytes ?? .max)
        do {
            return AuthResponse(head: response, body: try await OpenAPIMessages.collect(responseBody, upTo: maxResponseBytes, side: .response))
        } catch {
            // The body streams from the chain's transport: its failures are the chain's.
            throw OpenAPIChain.authError(error)
        }
    }
}
