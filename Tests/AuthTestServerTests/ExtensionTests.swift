// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthTestServer
import Foundation
import Hummingbird
import Testing

@Suite struct ExtensionTests {
    struct WhoAmIRoutes: RouteGroup {
        func addRoutes(to router: Router<BasicRequestContext>, environment: RouteEnvironment) {
            router.get("/extra/whoami") { request, _ in
                switch await environment.authenticate(request) {
                case .failure(let rejection):
                    return rejection.response
                case .success(let claims):
                    environment.counters.record(.custom("whoami"))
                    return ServerResponse.json(.ok, ["sub": claims.sub])
                }
            }
        }
    }

    @Test func extraRouteGroupsShareStateFaultsAndCounters() async throws {
        let ping = ClosureRouteGroup { router, _ in
            router.get("/extra/ping") { _, _ in ServerResponse.json(.ok, ["pong": true]) }
        }
        try await withServer(.init(routeGroups: [WhoAmIRoutes(), ping])) { server, http in
            #expect(try await http.get("/extra/ping").json()["pong"] as? Bool == true)
            #expect(try await http.get("/extra/whoami").status == 401)

            let access = try await http.signUp("alice").string("access_token")
            let whoami = try await http.get("/extra/whoami", bearer: access)
            #expect(whoami.status == 200)
            let user = try #require(await server.state.user(named: "alice"))
            #expect(try whoami.string("sub") == user.id)
            #expect(server.counters.count("whoami") == 1)

            server.faults.inject(.status(429, retryAfter: "3"), path: "/extra/ping")
            #expect(try await http.get("/extra/ping").status == 429)
            #expect(server.counters.requests(path: "/extra/ping") == 2)
        }
    }

    @Test func loginPolicyCanAskForASecondStep() async throws {
        let policy = LoginPolicy { user, _ in
            guard user.attributes["mfa"] == "totp" else { return .issueTokens }
            return .mfaRequired(LoginChallenge(challengeID: "challenge-1", methods: ["totp"], expiresIn: 300))
        }
        try await withServer(.init(loginPolicy: policy)) { server, http in
            _ = try await http.signUp("plain")
            _ = try await http.postJSON("/auth/register", ["username": "secured", "password": "pw"])
            let user = try #require(await server.state.user(named: "secured"))
            await server.state.setAttribute("totp", forKey: "mfa", userID: user.id)

            let login = try await http.postJSON("/auth/login", ["username": "secured", "password": "pw"])
            #expect(login.status == 200)
            let body = try login.json()
            #expect(body["mfa_required"] as? Bool == true)
            #expect(body["challenge_id"] as? String == "challenge-1")
            #expect(body["methods"] as? [String] == ["totp"])
            #expect(body["expires_in"] as? Int == 300)
            #expect(body["access_token"] == nil)
            #expect(server.counters.logins == 1)

            // The later verify step issues tokens the same way login does.
            let tokens = try await server.state.issueTokens(forUserID: user.id)
            #expect(try await http.get("/me", bearer: tokens.accessToken).json()["username"] as? String == "secured")
        }
    }
}
