// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import HTTPTypes
import Logging
import Hummingbird

/// Serves injected faults before the route sees the request.
struct FaultMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext

    let faults: FaultInjector

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard let fault = faults.take(path: request.uri.path) else {
            return try await next(request, context)
        }
        context.logger.debug("serving injected fault", metadata: ["path": .string(request.uri.path)])
        return try await Self.respond(with: fault, request: request, context: context, next: next)
    }

    static func respond(
        with fault: Fault,
        request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        switch fault {
        case .status(let code, let retryAfter):
            var headers = HTTPFields()
            if let retryAfter { headers[.retryAfter] = retryAfter }
            return ServerResponse.json(
                .init(code: code),
                InjectedFaultBody(error: "injected_fault", status: code),
                headers: headers
            )
        case .malformedJSON:
            return ServerResponse.raw(.ok, body: Fault.malformedJSONBody, contentType: "application/json")
        case .delay(let duration):
            try await Task.sleep(for: duration)
            return try await next(request, context)
        case .slowAnswer(let duration):
            let response = try await next(request, context)
            try await Task.sleep(for: duration)
            return response
        case .redirect(let location, let status):
            return ServerResponse.redirect(to: location, status: status)
        case .response(let status, let headerValues, let body):
            var response = ServerResponse.raw(.init(code: status), body: body, contentType: nil)
            for (name, value) in headerValues {
                if let field = HTTPField.Name(name) { response.headers[field] = value }
            }
            return response
        }
    }
}

/// Body of an injected status fault.
struct InjectedFaultBody: Encodable {
    let error: String
    let status: Int
}
