// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthTestServer
import Foundation
import HummingbirdBcrypt
import Testing

@Suite struct AuthFlowTests {
    @Test func registerLoginAndMe() async throws {
        try await withServer { server, http in
            let registered = try await http.postJSON("/auth/register", ["username": "alice", "password": "s3cret!"])
            #expect(registered.status == 201)
            let userID = try registered.string("user_id")

            let login = try await http.postJSON("/auth/login", ["username": "alice", "password": "s3cret!"])
            #expect(login.status == 200)
            let body = try login.json()
            #expect(body["token_type"] as? String == "Bearer")
            #expect(body["expires_in"] as? Int == 300)
            let access = try body.string("access_token")
            #expect(!(try body.string("refresh_token")).isEmpty)
            #expect(access.split(separator: ".").count == 3)

            let me = try await http.get("/me", bearer: access)
            #expect(me.status == 200)
            let meBody = try me.json()
            #expect(meBody["user_id"] as? String == userID)
            #expect(meBody["username"] as? String == "alice")
            #expect(meBody["guest"] as? Bool == false)
            #expect(server.counters.logins == 1)
            #expect(server.counters.registrations == 1)
        }
    }

    @Test func wrongPasswordAndUnknownUserAnswer401() async throws {
        try await withServer { server, http in
            _ = try await http.postJSON("/auth/register", ["username": "bob", "password": "right"])
            let wrong = try await http.postJSON("/auth/login", ["username": "bob", "password": "wrong"])
            #expect(wrong.status == 401)
            #expect(try wrong.string("error") == "invalid_credentials")
            let unknown = try await http.postJSON("/auth/login", ["username": "nobody", "password": "right"])
            #expect(unknown.status == 401)
            #expect(server.counters.logins == 0)
        }
    }

    @Test func duplicateRegistrationAnswers409() async throws {
        try await withServer { server, http in
            let first = try await http.postJSON("/auth/register", ["username": "carol", "password": "one"])
            let second = try await http.postJSON("/auth/register", ["username": "carol", "password": "two"])
            #expect(first.status == 201)
            #expect(second.status == 409)
            #expect(server.counters.registrations == 1)
            // The first password still works: the duplicate did not overwrite the user.
            let login = try await http.postJSON("/auth/login", ["username": "carol", "password": "one"])
            #expect(login.status == 200)
        }
    }

    @Test func registrationNeedsUsernameAndPassword() async throws {
        try await withServer { _, http in
            let missing = try await http.postJSON("/auth/register", ["username": "dave"])
            #expect(missing.status == 400)
            #expect(try missing.string("error") == "invalid_request")
            let notJSON = try await http.send("POST", "/auth/register", body: "username=dave")
            #expect(notJSON.status == 400)
        }
    }

    @Test func passwordIsStoredOnlyAsABcryptHash() async throws {
        try await withServer { server, http in
            _ = try await http.postJSON("/auth/register", ["username": "erin", "password": "plain-text-pw"])
            let hash = try #require(await server.storedPasswordHash(username: "erin"))
            #expect(hash != "plain-text-pw")
            #expect(!hash.contains("plain-text-pw"))
            #expect(hash.hasPrefix("$2"))
            #expect(Bcrypt.verify("plain-text-pw", hash: hash))
            #expect(!Bcrypt.verify("other", hash: hash))
        }
    }

    @Test func logoutRevokesTheFamily() async throws {
        try await withServer { _, http in
            let tokens = try await http.signUp("frank")
            let access = try tokens.string("access_token")
            let refresh = try tokens.string("refresh_token")

            let logout = try await http.send("POST", "/auth/logout", headers: [("Authorization", "Bearer \(access)")])
            #expect(logout.status == 204)
            #expect(try await http.get("/me", bearer: access).status == 401)
            let renewed = try await http.postJSON("/auth/refresh", ["refresh_token": refresh])
            #expect(renewed.status == 400)
            #expect(try renewed.string("error") == "invalid_grant")
        }
    }

    @Test func meRefusesMissingTamperedAndForeignTokens() async throws {
        try await withServer { _, http in
            let missing = try await http.get("/me")
            #expect(missing.status == 401)
            #expect(missing.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)

            let access = try await http.signUp("grace").string("access_token")
            var parts = access.split(separator: ".").map(String.init)
            parts[2] = String(parts[2].reversed())
            let tampered = try await http.get("/me", bearer: parts.joined(separator: "."))
            #expect(tampered.status == 401)
            #expect(tampered.header("WWW-Authenticate")?.contains(#"error="invalid_token""#) == true)

            // A token signed by another server's key is refused.
            let foreign = try await AuthTestServer.withRunning { other in
                try await withHTTPClient { client in
                    try await TestClient(client: client, baseURL: other.baseURL).signUp("grace").string("access_token")
                }
            }
            #expect(try await http.get("/me", bearer: foreign).status == 401)
            #expect(try await http.get("/me", bearer: "not-a-jwt").status == 401)
        }
    }
}
