// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import Logging
import Hummingbird
import HummingbirdBcrypt
import NIOPosix

/// `POST /auth/register`, `/auth/login`, `/auth/refresh`, `/auth/logout`.
struct AuthRoutes: RouteGroup {
    func addRoutes(to router: Router<BasicRequestContext>, environment: RouteEnvironment) {
        let limit = environment.configuration.maxBodySize
        router.post("/auth/register") { request, _ in
            try await register(request, environment: environment, limit: limit)
        }
        router.post("/auth/login") { request, _ in
            try await login(request, environment: environment, limit: limit)
        }
        router.post("/auth/refresh") { request, _ in
            try await refresh(request, environment: environment, limit: limit)
        }
        router.post("/auth/logout") { request, _ in
            switch await environment.authenticate(request) {
            case .failure(let rejection):
                return rejection.response
            case .success(let claims):
                await environment.state.revokeFamily(id: claims.fam)
                return Response(status: .noContent)
            }
        }
    }

    struct Credentials: Decodable {
        let username: String
        let password: String
    }

    struct Registered: Encodable {
        let userID: String
        enum CodingKeys: String, CodingKey { case userID = "user_id" }
    }

    private func register(_ request: Request, environment: RouteEnvironment, limit: Int) async throws -> Response {
        guard let credentials = try await request.decodeJSON(Credentials.self, upTo: limit),
              !credentials.username.isEmpty, !credentials.password.isEmpty
        else {
            return ServerResponse.error(.badRequest, "invalid_request", description: "body must be JSON {username, password}, both non-empty")
        }
        if await environment.state.user(named: credentials.username) != nil {
            return ServerResponse.error(.conflict, "username_taken", description: "that username is already registered")
        }
        let cost = environment.configuration.effectiveBcryptCost
        let password = credentials.password
        let hash = try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(password, cost: cost) }
        guard let user = await environment.state.register(username: credentials.username, passwordHash: hash) else {
            return ServerResponse.error(.conflict, "username_taken", description: "that username is already registered")
        }
        environment.counters.record(.registration)
        environment.logger.info("user registered", metadata: ["user_id": .string(user.id)])
        return ServerResponse.json(.created, Registered(userID: user.id))
    }

    private func login(_ request: Request, environment: RouteEnvironment, limit: Int) async throws -> Response {
        guard let credentials = try await request.decodeJSON(Credentials.self, upTo: limit) else {
            return ServerResponse.error(.badRequest, "invalid_request", description: "body must be JSON {username, password}")
        }
        let invalid = ServerResponse.error(.unauthorized, "invalid_credentials", description: "wrong username or password")
        guard let user = await environment.state.user(named: credentials.username) else { return invalid }
        let password = credentials.password
        let hash = user.passwordHash
        let matches = try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(password, hash: hash) }
        guard matches else {
            environment.logger.info("login refused", metadata: ["user_id": .string(user.id)])
            return invalid
        }
        switch try await environment.configuration.loginPolicy.decide(user, environment) {
        case .issueTokens:
            let tokens = try await environment.state.issueTokens(forUserID: user.id)
            environment.counters.record(.login)
            return ServerResponse.json(.ok, tokens)
        case .mfaRequired(let challenge):
            return ServerResponse.json(.ok, challenge)
        }
    }
}
