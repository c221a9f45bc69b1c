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

/// A token set builds its `Authorization` field once; what a request gets, what is stored and
/// what compares equal must still follow the token set's visible properties.
@Suite struct BearerTokenSetTests {
    let url = URL(string: "https://api.example.com/v1/me")!

    func authorization(_ tokens: BearerTokenSet, on request: AuthRequest? = nil) throws -> [String] {
        var request = try request ?? AuthRequest(method: .get, url: url)
        tokens.authorize(&request)
        return request.head.headerFields[values: .authorization]
    }

    @Test func changingTheTokenOrItsTypeChangesWhatRequestsCarry() throws {
        var tokens = BearerTokenSet(accessToken: "first", refreshToken: nil, expiresAt: nil)
        #expect(try authorization(tokens) == ["Bearer first"])
        tokens.accessToken = Secret("second")
        #expect(try authorization(tokens) == ["Bearer second"])
        tokens.tokenType = "DPoP"
        #expect(try authorization(tokens) == ["DPoP second"])
        tokens.tokenType = "bearer"
        #expect(try authorization(tokens) == ["Bearer second"])
    }

    @Test func authorizingReplacesEveryAuthorizationFieldTheRequestHad() throws {
        var request = try AuthRequest(method: .get, url: url)
        request.head.headerFields.append(HTTPField(name: .authorization, value: "Basic c3RhbGU="))
        request.head.headerFields.append(HTTPField(name: .authorization, value: "Bearer stale"))
        request.head.headerFields[.accept] = "application/json"
        let tokens = BearerTokenSet(accessToken: "fresh", refreshToken: nil, expiresAt: nil)
        #expect(try authorization(tokens, on: request) == ["Bearer fresh"])
        var authorized = request
        tokens.authorize(&authorized)
        #expect(authorized.head.headerFields[.accept] == "application/json")
    }

    /// A request without fields gets the token set's prepared fields; a field added to one
    /// authorized request afterwards reaches neither the next request nor the token set.
    @Test func requestsAuthorizedFromNoFieldsDoNotShareLaterChanges() throws {
        let tokens = BearerTokenSet(accessToken: "shared", refreshToken: nil, expiresAt: nil)
        var first = try AuthRequest(method: .get, url: url)
        tokens.authorize(&first)
        first.head.headerFields[.accept] = "text/plain"
        first.head.headerFields.append(HTTPField(name: .authorization, value: "Bearer added"))
        var second = try AuthRequest(method: .get, url: url)
        tokens.authorize(&second)
        #expect(second.head.headerFields.count == 1)
        #expect(second.head.headerFields[values: .authorization] == ["Bearer shared"])
        #expect(first.head.headerFields[values: .authorization] == ["Bearer shared", "Bearer added"])
        // The same field as on a request that had fields already.
        var withFields = try AuthRequest(method: .get, url: url, headerFields: [.accept: "application/json"])
        tokens.authorize(&withFields)
        #expect(withFields.head.headerFields[fields: .authorization] == second.head.headerFields[fields: .authorization])
    }

    @Test func theStoredFormIsTheSixPropertiesAndReadsBack() throws {
        let tokens = BearerTokenSet(
            accessToken: "a-1", refreshToken: "r-1", expiresAt: Date(timeIntervalSinceReferenceDate: 800_000_000),
            scope: "openid", tokenType: "Bearer", idToken: "i-1")
        let json = try JSONEncoder().encode(tokens)
        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        #expect(Set(object.keys) == ["accessToken", "refreshToken", "expiresAt", "scope", "tokenType", "idToken"])
        let decoded = try JSONDecoder().decode(BearerTokenSet.self, from: json)
        #expect(decoded == tokens)
        #expect(try authorization(decoded) == ["Bearer a-1"])
    }

    @Test func equalityFollowsEveryStoredProperty() {
        let base = BearerTokenSet(accessToken: "a", refreshToken: "r", expiresAt: nil, scope: "s", tokenType: "Bearer", idToken: "i")
        #expect(base == BearerTokenSet(accessToken: "a", refreshToken: "r", expiresAt: nil, scope: "s", tokenType: "Bearer", idToken: "i"))
        var changed = [base, base, base, base, base, base]
        changed[0].accessToken = Secret("b")
        changed[1].refreshToken = Secret("q")
        changed[2].expiresAt = Date(timeIntervalSince1970: 1)
        changed[3].scope = "t"
        changed[4].tokenType = "DPoP"
        changed[5].idToken = Secret("j")
        for other in changed { #expect(other != base) }
    }

    @Test func aResponseStatusFollowsItsHead() {
        var response = AuthResponse(status: .ok)
        response.head.status = .unauthorized
        #expect(response.status == .unauthorized)
        response.head = HTTPResponse(status: .serviceUnavailable)
        #expect(response.status == .serviceUnavailable)
        #expect(AuthResponse(head: HTTPResponse(status: .notFound)).status == .notFound)
    }
}
