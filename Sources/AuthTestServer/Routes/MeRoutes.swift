// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Hummingbird

/// `GET /me`: who the bearer token belongs to.
struct MeRoutes: RouteGroup {
    struct Me: Encodable {
        let userID: String
        let username: String?
        let guest: Bool
        let deviceID: String?

        enum CodingKeys: String, CodingKey {
            case userID = "user_id"
            case username
            case guest
            case deviceID = "device_id"
        }
    }

    func addRoutes(to router: Router<BasicRequestContext>, environment: RouteEnvironment) {
        router.get("/me") { request, _ in
            switch await environment.authenticate(request) {
            case .failure(let rejection):
                return rejection.response
            case .success(let claims):
                if claims.isGuest {
                    return ServerResponse.json(.ok, Me(userID: claims.sub, username: nil, guest: true, deviceID: claims.deviceID))
                }
                guard let user = await environment.state.user(id: claims.sub) else {
                    return ServerResponse.invalidToken(AuthTestServerError(.accessTokenRevoked, "the token's user no longer exists"))
                }
                return ServerResponse.json(.ok, Me(userID: user.id, username: user.username, guest: false, deviceID: nil))
            }
        }
    }
}
