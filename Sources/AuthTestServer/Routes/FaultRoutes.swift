// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Hummingbird

/// Faults by URL: `/fault/status/{code}`, `/fault/slow`, `/fault/redirect`, `/fault/malformed-json`.
struct FaultRoutes: RouteGroup {
    struct OK: Encodable {
        let ok = true
        var sleptMs: Int?
        enum CodingKeys: String, CodingKey {
            case ok
            case sleptMs = "slept_ms"
        }
    }

    static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]
    static let maxSlowMilliseconds = 60_000

    func addRoutes(to router: Router<BasicRequestContext>, environment: RouteEnvironment) {
        // Answers `code` for the first `times` hits of `key` (default 1), then 200 {"ok":true}.
        router.get("/fault/status/{code}") { request, context in
            guard let code = context.parameters.get("code", as: Int.self), (100...599).contains(code) else {
                return ServerResponse.error(.badRequest, "invalid_request", description: "code must be an HTTP status 100...599")
            }
            let query = request.uri.queryParameters
            let times = query.get("times", as: Int.self) ?? 1
            let key = query.get("key").map { String($0) } ?? "status-\(code)"
            let retryAfter = query.get("retry_after").map { String($0) }
            let previousHits = environment.faults.recordStatusHit(key: key)
            guard previousHits < times else {
                return ServerResponse.json(.ok, OK())
            }
            return try await FaultMiddleware.respond(
                with: .status(code, retryAfter: retryAfter),
                request: request,
                context: context
            ) { _, _ in ServerResponse.json(.ok, OK()) }
        }
        router.get("/fault/slow") { request, _ in
            let requested = request.uri.queryParameters.get("ms", as: Int.self) ?? 1_000
            let milliseconds = min(max(requested, 0), Self.maxSlowMilliseconds)
            try await Task.sleep(for: .milliseconds(milliseconds))
            return ServerResponse.json(.ok, OK(sleptMs: milliseconds))
        }
        router.get("/fault/redirect") { request, _ in
            let query = request.uri.queryParameters
            guard let target = query.get("to").map({ String($0) }), !target.isEmpty else {
                return ServerResponse.error(.badRequest, "invalid_request", description: "the to query item is required")
            }
            let status = query.get("status", as: Int.self) ?? 302
            guard Self.redirectStatuses.contains(status) else {
                return ServerResponse.error(.badRequest, "invalid_request", description: "status must be 301, 302, 303, 307 or 308")
            }
            return ServerResponse.redirect(to: target, status: status)
        }
        router.get("/fault/malformed-json") { _, _ in
            ServerResponse.raw(.ok, body: Fault.malformedJSONBody, contentType: "application/json")
        }
    }
}
