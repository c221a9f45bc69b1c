// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Hummingbird
import Logging

/// Counts every request per path and remembers its header fields and query, before faults and
/// routes.
struct RequestRecorderMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext

    let counters: CounterRecorder

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        counters.recordRequest(path: request.uri.path, headers: request.headerDictionary, query: request.uri.query ?? "")
        let response = try await next(request, context)
        // Path only: query items may carry API keys.
        context.logger.debug(
            "request",
            metadata: [
                "method": .string(request.method.rawValue),
                "path": .string(request.uri.path),
                "status": .stringConvertible(response.status.code),
            ]
        )
        return response
    }
}
