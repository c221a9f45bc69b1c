// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Foundation
import HTTPTypes
import Logging
import Hummingbird

extension AuthRoutes {
    /// The refresh request, from a form (RFC 6749 §6) or JSON.
    struct RefreshRequest: Decodable {
        let grantType: String?
        let refreshToken: String?
        let clientID: String?

        enum CodingKeys: String, CodingKey {
            case grantType = "grant_type"
            case refreshToken = "refresh_token"
            case clientID = "client_id"
        }
    }

    /// `POST /auth/refresh`: form-encoded (grant_type required) or JSON (grant_type optional).
    func refresh(_ request: Request, environment: RouteEnvironment, limit: Int) async throws -> Response {
        let contentType = request.headers[.contentType]?.lowercased() ?? ""
        let data = try await request.collectData(upTo: limit)
        let body: RefreshRequest
        if contentType.hasPrefix("application/json") {
            guard let decoded = try? JSONDecoder().decode(RefreshRequest.self, from: data) else {
                return ServerResponse.error(.badRequest, "invalid_request", description: "body is not valid JSON")
            }
            body = decoded
        } else if contentType.hasPrefix("application/x-www-form-urlencoded") {
            let text = String(decoding: data, as: UTF8.self)
            guard let decoded = try? URLEncodedFormDecoder().decode(RefreshRequest.self, from: text) else {
                return ServerResponse.error(.badRequest, "invalid_request", description: "body is not a valid form")
            }
            guard decoded.grantType != nil else {
                return ServerResponse.error(.badRequest, "invalid_request", description: "grant_type is required")
            }
            body = decoded
        } else {
            return ServerResponse.error(
                .badRequest,
                "invalid_request",
                description: "send application/x-www-form-urlencoded or application/json"
            )
        }
        if let grantType = body.grantType, grantType != "refresh_token" {
            return ServerResponse.error(.badRequest, "unsupported_grant_type", description: "only grant_type=refresh_token is supported")
        }
        guard let refreshToken = body.refreshToken, !refreshToken.isEmpty else {
            return ServerResponse.error(.badRequest, "invalid_request", description: "refresh_token is required")
        }
        do {
            let tokens = try await environment.state.refresh(refreshToken)
            return ServerResponse.json(.ok, tokens)
        } catch let error as AuthTestServerError {
            environment.logger.info("refresh refused", metadata: ["reason": .string(error.code.description)])
            return ServerResponse.error(.badRequest, "invalid_grant", description: error.message)
        }
    }
}
