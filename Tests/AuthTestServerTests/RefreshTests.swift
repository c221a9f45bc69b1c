// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthTestServer
import Foundation
import Testing

@Suite struct RefreshTests {
    static func form(_ refreshToken: String) -> String {
        let encoded = refreshToken.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? refreshToken
        return "grant_type=refresh_token&refresh_token=\(encoded)&client_id=test-app"
    }

    @Test func formRefreshRotatesTheRefreshToken() async throws {
        try await withServer { server, http in
            let first = try await http.signUp("alice").string("refresh_token")
            let renewed = try await http.postForm("/auth/refresh", Self.form(first))
            #expect(renewed.status == 200)
            let second = try renewed.string("refresh_token")
            #expect(second != first)
            #expect(try renewed.string("token_type") == "Bearer")
            #expect(try await http.get("/me", bearer: renewed.string("access_token")).status == 200)

            let again = try await http.postForm("/auth/refresh", Self.form(second))
            #expect(again.status == 200)
            #expect(try again.string("refresh_token") != second)
            #expect(server.counters.renewals == 2)
        }
    }

    @Test func jsonRefreshIsAcceptedToo() async throws {
        try await withServer { server, http in
            let refresh = try await http.signUp("bob").string("refresh_token")
            let renewed = try await http.postJSON("/auth/refresh", ["refresh_token": refresh])
            #expect(renewed.status == 200)
            #expect(try renewed.string("refresh_token") != refresh)
            #expect(server.counters.renewals == 1)
        }
    }

    @Test func reusingARotatedTokenRevokesTheWholeFamily() async throws {
        try await withServer { server, http in
            let login = try await http.signUp("carol")
            let original = try login.string("refresh_token")
            let renewed = try await http.postForm("/auth/refresh", Self.form(original))
            let newestRefresh = try renewed.string("refresh_token")
            let familyAccess = try renewed.string("access_token")
            #expect(try await http.get("/me", bearer: familyAccess).status == 200)

            let reuse = try await http.postForm("/auth/refresh", Self.form(original))
            #expect(reuse.status == 400)
            #expect(try reuse.string("error") == "invalid_grant")
            #expect(try !reuse.string("error_description").isEmpty)
            #expect(server.counters.rejectedReuse == 1)

            let newest = try await http.postForm("/auth/refresh", Self.form(newestRefresh))
            #expect(newest.status == 400)
            #expect(try newest.string("error") == "invalid_grant")
            #expect(try await http.get("/me", bearer: familyAccess).status == 401)
            #expect(try await http.get("/me", bearer: login.string("access_token")).status == 401)
            #expect(server.counters.renewals == 1)
            #expect(server.counters.rejectedReuse == 1)
        }
    }

    @Test func reuseInOneFamilyLeavesOtherLoginsAlone() async throws {
        try await withServer { _, http in
            let phone = try await http.signUp("dave")
            let laptop = try await http.postJSON("/auth/login", ["username": "dave", "password": "correct horse"]).json()
            let phoneRefresh = try phone.string("refresh_token")
            _ = try await http.postForm("/auth/refresh", Self.form(phoneRefresh))
            _ = try await http.postForm("/auth/refresh", Self.form(phoneRefresh))

            #expect(try await http.get("/me", bearer: laptop.string("access_token")).status == 200)
            let laptopRenewal = try await http.postForm("/auth/refresh", Self.form(laptop.string("refresh_token")))
            #expect(laptopRenewal.status == 200)
        }
    }

    @Test func malformedRefreshRequestsGetOAuthErrors() async throws {
        try await withServer { server, http in
            let refresh = try await http.signUp("erin").string("refresh_token")
            let encoded = refresh.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? refresh

            let noGrant = try await http.postForm("/auth/refresh", "refresh_token=\(encoded)")
            #expect(noGrant.status == 400)
            #expect(try noGrant.string("error") == "invalid_request")

            let wrongGrant = try await http.postForm("/auth/refresh", "grant_type=password&refresh_token=\(encoded)")
            #expect(wrongGrant.status == 400)
            #expect(try wrongGrant.string("error") == "unsupported_grant_type")

            let noToken = try await http.postForm("/auth/refresh", "grant_type=refresh_token")
            #expect(noToken.status == 400)
            #expect(try noToken.string("error") == "invalid_request")

            let unknown = try await http.postForm("/auth/refresh", Self.form("never-issued"))
            #expect(unknown.status == 400)
            #expect(try unknown.string("error") == "invalid_grant")

            // None of these consumed the real token.
            #expect(try await http.postForm("/auth/refresh", Self.form(refresh)).status == 200)
            #expect(server.counters.rejectedReuse == 0)
        }
    }

    @Test func serverSideRevocationRefusesRefreshTokens() async throws {
        try await withServer { server, http in
            let login = try await http.signUp("frank")
            #expect(await server.revokeRefreshTokens(username: "frank") == 1)
            let renewal = try await http.postForm("/auth/refresh", Self.form(login.string("refresh_token")))
            #expect(renewal.status == 400)
            #expect(try renewal.string("error") == "invalid_grant")
            #expect(server.counters.renewals == 0)
        }
    }

    @Test func expiredRefreshTokenIsRefused() async throws {
        let clock = ServerClock()
        try await withServer(.init(lifetimes: .init(refresh: 3600), clock: clock)) { server, http in
            let refresh = try await http.signUp("grace").string("refresh_token")
            clock.advance(by: 3601)
            let renewal = try await http.postForm("/auth/refresh", Self.form(refresh))
            #expect(renewal.status == 400)
            #expect(try renewal.string("error") == "invalid_grant")
            #expect(server.counters.renewals == 0)
        }
    }
}
