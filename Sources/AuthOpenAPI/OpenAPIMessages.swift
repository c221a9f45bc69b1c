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

/// Conversions between the OpenAPI runtime's messages (an `HTTPRequest` whose path is relative to
/// a base URL, and streamed `HTTPBody`s) and AuthKit's (an absolute `AuthRequest`, whole bodies).
enum OpenAPIMessages {
    /// The AuthKit request for a generated client's `request` to `base`: the base URL's path
    /// followed by the request's path and query, the body read whole (signing and retries need
    /// it).
    /// - Throws: `AuthError.invalidRequest` when the path does not start with `/`, or the body
    ///   holds more than `maxBytes`.
    nonisolated(nonsending) static func authRequest(_ request: HTTPRequest, body: HTTPBody?, base: OpenAPIBase, maxBytes: Int) async throws -> AuthRequest {
        let target = try base.target(request.path)
        let bytes = try await collect(body, upTo: maxBytes, side: .request)
        let head = HTTPRequest(method: request.method, scheme: base.scheme, authority: base.authority, path: target, headerFields: request.headerFields)
        return AuthRequest(head: head, body: bytes)
    }

    /// The request as the next OpenAPI middleware or transport takes it, with `Cookie` fields
    /// joined for HTTP/1.1 (the transport after may speak it): the client's own server URL and
    /// the operation's path while the request goes there, else (after a redirect to another
    /// origin) that origin as the base URL and the whole target as the path.
    /// - Throws: `AuthError.invalidRequest` when the request has no valid origin or target (see
    ///   `AuthRequest.urlForTransport()`).
    static func openAPIRequest(_ request: AuthRequest, base: OpenAPIBase, origins: OriginURLs) throws -> (HTTPRequest, HTTPBody?, URL) {
        let url = try request.urlForTransport()
        let target = request.head.path ?? "/"
        let method = request.head.method
        // An empty body of a method that has one is sent as one (`Content-Length: 0`).
        let body = request.body.isEmpty && method != .post && method != .put && method != .patch ? nil : HTTPBody(request.body)
        if let path = base.operationPath(scheme: request.head.scheme, authority: request.head.authority, target: target),
           let baseURL = base.isExact ? base.url : origins.url(base.scheme + "://" + base.authority + base.path) {
            return (HTTPRequest(method: method, scheme: nil, authority: nil, path: path, headerFields: request.headerFieldsForHTTP1), body, baseURL)
        }
        guard let origin = origins.url(String(url.utf8.dropLast(target.utf8.count))!) else {
            throw AuthError.invalidRequest("the request's origin does not form a URL")
        }
        return (HTTPRequest(method: method, scheme: nil, authority: nil, path: target, headerFields: request.headerFieldsForHTTP1), body, origin)
    }

    /// The generated client's view of `response`: no body for a `HEAD` request or a status that
    /// has none, else the whole body with its length known.
    static func openAPIResponse(_ response: AuthResponse, method: HTTPRequest.Method) -> (HTTPResponse, HTTPBody?) {
        let code = response.status.code
        if method == .head || code == 204 || code == 304 || (100..<200).contains(code) {
            return (response.head, nil)
        }
        return (response.head, HTTPBody(response.body))
    }

    /// Which message a body belongs to, for the error when it is too large.
    enum Side {
        case request, response
    }

    /// The bytes of `body`, none when there is no body.
    /// - Throws: `AuthError.invalidRequest` (a request's) or `.responseTooLarge` (a response's,
    ///   which the retry middleware does not send again) when it holds more than `maxBytes`,
    ///   before reading it when its length is known; the body's own error when reading it fails.
    nonisolated(nonsending) static func collect(_ body: HTTPBody?, upTo maxBytes: Int, side: Side) async throws -> Data {
        guard let body else { return Data() }
        var data = Data()
        if case .known(let length) = body.length {
            guard length <= maxBytes else { throw tooLarge(side, maxBytes) }
            data.reserveCapacity(Int(length))
        }
        for try await chunk in body {
            guard data.count + chunk.count <= maxBytes else { throw tooLarge(side, maxBytes) }
            data.append(contentsOf: chunk)
        }
        return data
    }

    private static func tooLarge(_ side: Side, _ maxBytes: Int) -> AuthError {
        switch side {
        case .request: AuthError.invalidRequest("the request body is larger than \(maxBytes) bytes")
        case .response: AuthError(code: .responseTooLarge, message: "the response body is larger than \(maxBytes) bytes")
        }
    }
}
