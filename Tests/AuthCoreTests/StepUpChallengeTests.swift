// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthTesting
import Foundation
import HTTPTypes
import Testing

/// Reading a resource's step-up requirement (RFC 9470, RFC 6750 §3.1) from its answer, and the
/// bearer strategy's verdict on it: no renewal, a typed error.
@Suite struct StepUpChallengeTests {
    static func answer(_ status: Int, _ challenges: [String], body: String = "") -> AuthResponse {
        var fields = HTTPFields()
        for challenge in challenges { fields.append(HTTPField(name: .wwwAuthenticate, value: challenge)) }
        return AuthResponse(status: .init(code: status), headerFields: fields, body: Data(body.utf8))
    }

    @Test func readsAcrValuesAndMaxAge() {
        let response = Self.answer(401, [#"Bearer realm="api", error="insufficient_user_authentication", error_description="A different authentication level is required", acr_values="urn:mfa urn:phr", max_age=5"#])
        #expect(StepUpChallenge(response) == StepUpChallenge(reason: .userAuthentication, acrValues: ["urn:mfa", "urn:phr"], maxAge: 5, status: 401))
    }

    @Test func readsTheScopeOfA403() {
        let response = Self.answer(403, [#"Bearer error="insufficient_scope", scope="write admin""#])
        #expect(StepUpChallenge(response) == StepUpChallenge(reason: .scope, scope: ["write", "admin"], status: 403))
    }

    @Test func findsTheBearerChallengeAmongOthers() {
        let combined = Self.answer(401, [#"DPoP algs="ES256", Bearer error="insufficient_user_authentication", max_age="30""#])
        #expect(StepUpChallenge(combined)?.maxAge == 30)
        let separate = Self.answer(401, [#"Basic realm="x""#, #"Bearer error="insufficient_user_authentication", acr_values="a\"b""#])
        #expect(StepUpChallenge(separate)?.acrValues == [#"a"b"#])
    }

    @Test func otherAnswersAreNoStepUp() {
        #expect(StepUpChallenge(Self.answer(401, [#"Bearer error="invalid_token""#])) == nil)
        #expect(StepUpChallenge(Self.answer(401, [#"Bearer error="insufficient_scope""#])) == nil)  // scope is a 403
        #expect(StepUpChallenge(Self.answer(403, [#"Bearer error="insufficient_user_authentication""#])) == nil)  // that is a 401
        #expect(StepUpChallenge(Self.answer(403, [#"Basic error="insufficient_scope""#])) == nil)
        #expect(StepUpChallenge(Self.answer(401, [#"Bearer error="insufficient_user_authentication"#])) == nil)  // unclosed quote
        #expect(StepUpChallenge(Self.answer(403, [], body: #"{"error": "forbidden"}"#)) == nil)
        #expect(StepUpChallenge(Self.answer(500, [#"Bearer error="insufficient_user_authentication""#])) == nil)
    }

    /// Authlib answers so: a 403 with the error in its JSON body and no challenge field.
    @Test func aBareForbiddenWithAnInsufficientScopeBodyCounts() {
        #expect(StepUpChallenge(Self.answer(403, [], body: #"{"error": "insufficient_scope", "error_description": "x"}"#)) == StepUpChallenge(reason: .scope, status: 403))
    }

    @Test func theBearerStrategyFailsWithoutRenewing() throws {
        let strategy = BearerStrategy(allowedHosts: AllowedHosts(["api.example.com"])) { _ in throw AuthError.invalidRequest("no renewal expected") }
        let request = try AuthRequest(method: .get, url: URL(string: "https://api.example.com/reports")!)
        let stepUp = Self.answer(401, [#"Bearer error="insufficient_user_authentication", acr_values="urn:mfa""#])
        #expect(strategy.isAuthenticationFailure(stepUp, for: request))
        let error = try #require(strategy.nonRenewableFailure(stepUp, for: request))
        #expect(error.code == .stepUpRequired)
        #expect((error.underlying as? StepUpChallenge)?.acrValues == ["urn:mfa"])
        let scope = Self.answer(403, [#"Bearer error="insufficient_scope", scope="write""#])
        #expect(strategy.isAuthenticationFailure(scope, for: request))
        #expect(strategy.nonRenewableFailure(scope, for: request)?.code == .stepUpRequired)
        // An expired token is still renewed.
        let expired = Self.answer(401, [#"Bearer error="invalid_token""#])
        #expect(strategy.isAuthenticationFailure(expired, for: request))
        #expect(strategy.nonRenewableFailure(expired, for: request) == nil)
    }
}

/// The refresh token's own lifetime in a token response, under both names providers use.
@Suite struct RefreshTokenLifetimeTests {
    @Test(arguments: ["refresh_expires_in", "refresh_token_expires_in"])
    func readsEitherName(name: String) throws {
        let issued = Date(timeIntervalSince1970: 1_800_000_000)
        let response = try TokenResponse.parse(Data(#"{"access_token":"a","refresh_token":"r","expires_in":300,"\#(name)":"1800"}"#.utf8))
        let tokens = response.tokenSet(issuedAt: issued)
        #expect(tokens.refreshExpiresAt == issued.addingTimeInterval(1800))
        #expect(tokens.renewableUntil == issued.addingTimeInterval(1800))
        // Stored and read back.
        let stored = try JSONDecoder().decode(BearerTokenSet.self, from: try JSONEncoder().encode(tokens))
        #expect(stored == tokens)
    }

    @Test func zeroMeansNotSaidAndAKeptRefreshTokenKeepsItsExpiry() throws {
        let issued = Date(timeIntervalSince1970: 1_800_000_000)
        let offline = try TokenResponse.parse(Data(#"{"access_token":"a","refresh_token":"r","refresh_expires_in":0}"#.utf8))
        #expect(offline.tokenSet(issuedAt: issued).refreshExpiresAt == nil)
        let kept = try TokenResponse.parse(Data(#"{"access_token":"a2","expires_in":300}"#.utf8))
        let previous = issued.addingTimeInterval(100)
        #expect(kept.tokenSet(issuedAt: issued, renewing: BearerTokenSet(accessToken: "a", refreshToken: "r", refreshExpiresAt: previous)).refreshExpiresAt == previous)
        // A record written before the field existed reads it as unknown.
        let old = try JSONDecoder().decode(BearerTokenSet.self, from: Data(#"{"accessToken":"a","tokenType":"Bearer"}"#.utf8))
        #expect(old.refreshExpiresAt == nil)
    }
}

/// What a refresh's answer leaves out is kept from the set it renews.
@Suite struct RenewedTokenSetTests {
    let issued = Date(timeIntervalSince1970: 1_800_000_000)
    let previous = BearerTokenSet(accessToken: "a0", refreshToken: "r0", scope: "read", idToken: "i0")

    @Test func aRefreshAnswerWithoutScopeOrIDTokenKeepsThePreviousOnes() throws {
        let renewed = try TokenResponse.parse(Data(#"{"access_token":"a1","token_type":"bearer","expires_in":300}"#.utf8)).tokenSet(issuedAt: issued, renewing: previous)
        #expect(renewed.accessToken.reveal == "a1" && renewed.refreshToken?.reveal == "r0")
        #expect(renewed.scope == "read")
        #expect(renewed.idToken?.reveal == "i0")
        // A scope asked for names the scope of an answer that names none (RFC 6749 §5.1).
        #expect(try TokenResponse.parse(Data(#"{"access_token":"a1"}"#.utf8)).tokenSet(issuedAt: issued, renewing: previous, requestedScope: "read:self").scope == "read:self")
    }

    @Test func whatTheAnswerSaysWins() throws {
        let renewed = try TokenResponse.parse(Data(#"{"access_token":"a1","refresh_token":"r1","scope":"read write","id_token":"i1"}"#.utf8)).tokenSet(issuedAt: issued, renewing: previous, requestedScope: "read")
        #expect(renewed.refreshToken?.reveal == "r1" && renewed.scope == "read write" && renewed.idToken?.reveal == "i1")
    }
}

extension StepUpChallengeTests {
    /// A DPoP-bound token is sent and refused under the `DPoP` scheme (RFC 9449 §7.1): its
    /// `invalid_token` is a rejected token, its `insufficient_scope` a step-up; a refused proof
    /// (`use_dpop_nonce`, `invalid_dpop_proof`) is not the token's fault.
    @Test func aDPoPChallengeRejectsTheTokenUnlessItRefusesTheProof() throws {
        let strategy = BearerStrategy(allowedHosts: AllowedHosts(["api.example.com"])) { _ in throw AuthError.invalidRequest("no renewal expected") }
        let request = try AuthRequest(method: .get, url: URL(string: "https://api.example.com/reports")!, headerFields: [.authorization: "DPoP t0ken"])
        #expect(strategy.isAuthenticationFailure(Self.answer(401, [#"DPoP error="invalid_token", algs="ES256""#]), for: request))
        #expect(strategy.isAuthenticationFailure(Self.answer(401, [#"DPoP algs="ES256 PS256""#]), for: request))
        #expect(strategy.nonRenewableFailure(Self.answer(401, [#"DPoP error="invalid_token""#]), for: request) == nil)
        #expect(!strategy.isAuthenticationFailure(Self.answer(401, [#"DPoP error="use_dpop_nonce""#]), for: request))
        #expect(!strategy.isAuthenticationFailure(Self.answer(401, [#"DPoP error="invalid_dpop_proof", algs="ES256""#]), for: request))
        #expect(!strategy.isAuthenticationFailure(Self.answer(401, [#"Signature realm="api""#]), for: request))
        let scope = Self.answer(403, [#"DPoP error="insufficient_scope", scope="write""#])
        #expect(strategy.isAuthenticationFailure(scope, for: request))
        #expect(strategy.nonRenewableFailure(scope, for: request)?.code == .stepUpRequired)
        // A challenge for the token after one that names no error.
        #expect(StepUpChallenge(Self.answer(401, [#"Bearer realm="api", DPoP error="insufficient_user_authentication", max_age=10"#]))?.maxAge == 10)
    }


    @Test func aToken68ChallengeBeforeBearerIsSkipped() {
        let response = Self.answer(401, [#"Negotiate YII==, Bearer error="insufficient_user_authentication", acr_values="urn:mfa""#])
        #expect(StepUpChallenge(response)?.acrValues == ["urn:mfa"])
    }
}
