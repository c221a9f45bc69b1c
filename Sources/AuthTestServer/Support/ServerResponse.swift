// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation
public import HTTPTypes
public import Hummingbird
import NIOCore

/// Builds the server's responses, so every route group answers JSON the same way.
///
/// ```swift
/// router.get("/hello") { _, _ in ServerResponse.json(.ok, ["hello": "world"]) }
/// ```
public enum ServerResponse {
    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// A JSON response with `Content-Type: application/json`.
    /// - Parameters:
    ///   - status: The status.
    ///   - body: The value to encode.
    ///   - headers: Extra header fields.
    public static func json(_ status: HTTPResponse.Status, _ body: some Encodable, headers: HTTPFields = [:]) -> Response {
        let data = (try? encoder.encode(body)) ?? Data("{}".utf8)
        var fields = headers
        fields[.contentType] = "application/json"
        fields[.cacheControl] = "no-store"
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// An OAuth-style error (RFC 6749 §5.2): `{"error": code, "error_description": text}`.
    /// - Parameters:
    ///   - status: The status, e.g. `.badRequest`.
    ///   - code: The `error` value, e.g. `invalid_grant`.
    ///   - description: The `error_description`, if any; never a secret.
    ///   - headers: Extra header fields.
    public static func error(
        _ status: HTTPResponse.Status,
        _ code: String,
        description: String? = nil,
        headers: HTTPFields = [:]
    ) -> Response {
        json(status, ErrorBody(error: code, errorDescription: description), headers: headers)
    }

    /// 401 `invalid_token` with `WWW-Authenticate: Bearer error="invalid_token"` (RFC 6750 §3.1).
    ///
    /// A request without credentials gets a challenge without an error code, as RFC 6750 §3.1 asks.
    /// - Parameter reason: The rejection, or `nil` (or a `missingBearerToken` error) when no bearer
    ///   token was sent.
    public static func invalidToken(_ reason: AuthTestServerError?) -> Response {
        guard let reason, reason.code != .missingBearerToken else {
            var headers = HTTPFields()
            headers[.wwwAuthenticate] = #"Bearer realm="auth-test-server""#
            return error(.unauthorized, "invalid_token", description: "a bearer token is required", headers: headers)
        }
        var headers = HTTPFields()
        headers[.wwwAuthenticate] = #"Bearer realm="auth-test-server", error="invalid_token", error_description="\#(reason.message)""#
        return error(.unauthorized, "invalid_token", description: reason.message, headers: headers)
    }

    /// A response with a verbatim body.
    /// - Parameters:
    ///   - status: The status.
    ///   - body: The body text.
    ///   - contentType: The `Content-Type`, or `nil` for none.
    public static func raw(_ status: HTTPResponse.Status, body: String, contentType: String?) -> Response {
        var headers = HTTPFields()
        if let contentType { headers[.contentType] = contentType }
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }

    /// A redirect with a `Location` header and an empty body.
    /// - Parameters:
    ///   - location: Absolute or relative URL.
    ///   - status: 301, 302, 303, 307 or 308.
    public static func redirect(to location: String, status: Int) -> Response {
        var headers = HTTPFields()
        headers[.location] = location
        return Response(status: .init(code: status), headers: headers)
    }
}

/// The JSON error body `{"error": ..., "error_description": ...}`.
public struct ErrorBody: Codable, Sendable, Equatable {
    /// The error code, e.g. `invalid_grant`.
    public var error: String
    /// Human-readable detail.
    public var errorDescription: String?

    /// Creates a body.
    /// - Parameters:
    ///   - error: The error code.
    ///   - errorDescription: Detail, if any.
    public init(error: String, errorDescription: String? = nil) {
        self.error = error
        self.errorDescription = errorDescription
    }

    enum CodingKeys: String, CodingKey {
        case error
        case errorDescription = "error_description"
    }
}
