// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Foundation
public import HTTPTypes
import HTTPTypesFoundation

/// An HTTP request with its whole body, as it travels through the middleware pipeline.
///
/// A request can be sent again unchanged: a retry after a renewal, a redirect hop and a signer
/// all rely on that, so the body is held as `Data` rather than as a stream.
///
/// ```swift
/// var request = try AuthRequest(method: .get, url: URL(string: "https://api.example.com/me")!)
/// request.head.headerFields[.accept] = "application/json"
/// ```
public struct AuthRequest: Sendable, Equatable {
    /// Method, scheme, authority, path and header fields.
    public var head: HTTPRequest
    /// The body bytes; empty for requests without a body.
    public var body: Data
    /// Per-request options that middlewares read (retry opt-in, timeout).
    public var options: RequestOptions

    /// Creates a request from its parts.
    public init(head: HTTPRequest, body: Data = Data(), options: RequestOptions = .init()) {
        self.head = head
        self.body = body
        self.options = options
    }

    /// Creates a request for an absolute URL.
    /// - Throws: `AuthError.invalidRequest` when the URL has no scheme or host.
    public init(
        method: HTTPRequest.Method,
        url: URL,
        headerFields: HTTPFields = HTTPFields(),
        body: Data = Data(),
        options: RequestOptions = .init()
    ) throws {
        guard let parts = URLRequestParts.of(url) else {
            throw AuthError.invalidRequest("the URL has no scheme or host")
        }
        self.init(
            head: HTTPRequest(method: method, scheme: parts.scheme, authority: parts.authority, path: parts.target, headerFields: headerFields),
            body: body, options: options)
    }

    /// The absolute URL of the request, when its parts form one.
    public var url: URL? { head.url }

    /// The origin (scheme, host, port) the request goes to.
    public var origin: Origin? { Origin(head) }

    /// Names a header field of this request as a secret (see ``RequestOptions/secretFields``).
    /// Names in ``SecretFieldNames/standard`` need no mark.
    public mutating func markSecret(header name: String) {
        guard !SecretFieldNames.standard.containsHeader(name), !options.secretFields.containsHeader(name) else { return }
        options.secretFields.formUnion(SecretFieldNames(headers: [name]))
    }

    /// Names a query item of this request as a secret (see ``RequestOptions/secretFields``).
    public mutating func markSecret(queryItem name: String) {
        guard !SecretFieldNames.standard.containsQueryItem(name), !options.secretFields.containsQueryItem(name) else { return }
        options.secretFields.formUnion(SecretFieldNames(queryItems: [name]))
    }
}
