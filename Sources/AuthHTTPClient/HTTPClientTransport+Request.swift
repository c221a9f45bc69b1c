// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AsyncHTTPClient
import AuthCore
import HTTPTypes
import NIOCore
import NIOHTTP1

extension HTTPClientTransport {
    /// `request` as AsyncHTTPClient takes it, sent to ``/AuthCore/AuthRequest/urlForTransport()``.
    /// Internal, not private: tests compare what it builds with the request.
    ///
    /// The target on the wire is byte for byte the request's `path` (what a signer signed), or
    /// the request is not sent: AsyncHTTPClient re-reads the URL with Foundation, which spells
    /// some targets otherwise (see ``PathFidelity``).
    /// - Throws: `AuthError` code `.invalidRequest` when the request's target is malformed, or
    ///   AsyncHTTPClient would send it otherwise than as it is written (escapes of bytes that are
    ///   not UTF-8, bytes a URL may not hold raw such as `[` or `|`, a `%` not followed by two
    ///   hex digits).
    static func outgoing(_ request: AuthRequest) throws -> HTTPClientRequest {
        let url = try request.urlForTransport()
        guard PathFidelity.sendsAsWritten(request.head.path ?? "/", in: url) else {
            throw AuthError.invalidRequest(
                "AsyncHTTPClient would not send the request target as it is written (it re-encodes bytes a URL may not hold raw, such as [ | { or a % without two hex digits, and sends / for escapes of bytes that are not UTF-8, such as %FF): percent-encode the target as it should go on the wire; the request is not sent"
            )
        }
        var outgoing = HTTPClientRequest(url: url)
        let method = request.head.method
        // GET, most requests' method and AsyncHTTPClient's default, compares as one word; any
        // other is spelled out for NIO (a comparison of strings per method it knows).
        let isGet = method == .get
        if !isGet { outgoing.method = HTTPMethod(rawValue: method.rawValue) }
        // AsyncHTTPClient may speak HTTP/1.1: one Cookie field (RFC 6265 §5.4).
        for field in request.headerFieldsForHTTP1 {
            outgoing.headers.add(name: field.name.rawName, value: field.value)
        }
        if !request.body.isEmpty || !isGet && (method == .post || method == .put || method == .patch) {
            outgoing.body = .bytes(ByteBuffer(bytes: request.body))
        }
        return outgoing
    }
}
