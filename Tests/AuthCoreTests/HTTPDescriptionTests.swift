// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Foundation
import HTTPTypes
import Testing

/// `AuthRequest` and `AuthResponse` describe themselves usefully, with every secret value hidden.
@Suite struct HTTPDescriptionTests {
    static func rendered(_ value: Any) -> String {
        var dumped = ""
        dump(value, to: &dumped)
        return [String(describing: value), String(reflecting: value), dumped].joined(separator: "\n")
    }

    @Test func aRequestShowsItsShapeButNoSecretValue() throws {
        var request = try AuthRequest(
            method: .post, url: URL(string: "https://api.example.com/v1/items?api_key=k-123&page=2")!,
            body: Data(#"{"password":"p-456"}"#.utf8), options: RequestOptions(retryNonIdempotent: true)
        )
        request.head.headerFields[.authorization] = "Bearer t-789"
        request.head.headerFields[.accept] = "application/json"
        request.head.headerFields[HTTPField.Name("X-Team-Token")!] = "x-000"
        request.markSecret(header: "X-Team-Token")

        #expect(request.description == "AuthRequest(POST https://api.example.com/v1/items?api_key=<redacted>&page=2, headerFields: [Authorization: <redacted>, Accept: application/json, X-Team-Token: <redacted>], body: 20 bytes, options: [retryNonIdempotent, secretFields: x-team-token])")
        let text = Self.rendered(request)
        for secret in ["k-123", "p-456", "t-789", "x-000"] { #expect(!text.contains(secret)) }
        for shown in ["page=2", "Accept: application/json", "20 bytes", "api.example.com"] { #expect(text.contains(shown)) }
    }

    @Test func aCredentialsOwnNamesAreHiddenOnceItAuthorizes() throws {
        var request = try AuthRequest(method: .get, url: URL(string: "https://api.example.com/me")!)
        APIKeyQueryCredential(parameterName: "team_key", key: "q-321").authorize(&request)
        APIKeyHeaderCredential(headerName: "X-Team-Key", key: "h-654").authorize(&request)
        let text = Self.rendered(request)
        #expect(!text.contains("q-321") && !text.contains("h-654"))
        #expect(text.contains("team_key=<redacted>") && text.contains("X-Team-Key: <redacted>"))
    }

    @Test func userInfoInTheAuthorityIsHidden() throws {
        var request = try AuthRequest(method: .get, url: URL(string: "https://api.example.com/")!)
        request.head.authority = "alice:pw-111@api.example.com"
        #expect(request.description.contains("https://<redacted>@api.example.com/"))
        #expect(!Self.rendered(request).contains("pw-111"))
    }

    @Test func aResponseHidesCookiesAndItsBody() {
        let response = AuthResponse(
            status: .ok, headerFields: [.setCookie: "sid=s-222; HttpOnly", .contentType: "application/json"],
            body: Data(#"{"access_token":"a-333"}"#.utf8)
        )
        #expect(response.description == "AuthResponse(200 OK, headerFields: [Set-Cookie: <redacted>, Content-Type: application/json], body: 24 bytes)")
        let text = Self.rendered(response)
        #expect(!text.contains("s-222") && !text.contains("a-333"))
    }

    @Test func aTokenResponseHoldsItsTokensAsSecrets() throws {
        let body = #"{"access_token":"a-444","refresh_token":"r-555","id_token":"i-666","token_type":"Bearer","expires_in":"60"}"#
        let response = try TokenResponse.parse(Data(body.utf8))
        #expect(response.accessToken.reveal == "a-444" && response.refreshToken?.reveal == "r-555" && response.idToken?.reveal == "i-666")
        #expect(response.expiresIn == 60)
        let text = Self.rendered(response)
        for secret in ["a-444", "r-555", "i-666"] { #expect(!text.contains(secret)) }
        let tokens = response.tokenSet(issuedAt: Date(timeIntervalSince1970: 0))
        #expect(tokens.accessToken.reveal == "a-444" && tokens.refreshToken?.reveal == "r-555")
    }
}
