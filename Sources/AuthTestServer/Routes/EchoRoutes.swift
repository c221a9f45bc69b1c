// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Hummingbird

/// What `/echo` answers: the request as the server received it.
public struct EchoedRequest: Codable, Sendable {
    /// The method.
    public let method: String
    /// The path, without the query.
    public let path: String
    /// The query, without the `?`.
    public let query: String
    /// The header fields by lower-cased name; repeated fields joined with ", ".
    public let headers: [String: String]
    /// The body as UTF-8 text.
    public let body: String
}

/// `GET|POST|PUT|PATCH|DELETE /echo` (and `/echo/**`): describes the request it received
/// (``EchoedRequest``).
struct EchoRoutes: RouteGroup {
    func addRoutes(to router: Router<BasicRequestContext>, environment: RouteEnvironment) {
        let limit = environment.configuration.maxBodySize
        let handler: @Sendable (Request, BasicRequestContext) async throws -> Response = { request, _ in
            let data = try await request.collectData(upTo: limit)
            let echo = EchoedRequest(
                method: request.method.rawValue,
                path: request.uri.path,
                query: request.uri.query ?? "",
                headers: request.headerDictionary,
                body: String(decoding: data, as: UTF8.self)
            )
            return ServerResponse.json(.ok, echo)
        }
        for path in ["/echo", "/echo/**"] {
            router.get(.init(path), use: handler)
            router.post(.init(path), use: handler)
            router.put(.init(path), use: handler)
            router.patch(.init(path), use: handler)
            router.delete(.init(path), use: handler)
        }
    }
}
