// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthMFA
import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// `POST /auth/mfa/totp/enroll` (bearer) and `POST /auth/mfa/verify`.
///
/// - Enrol: creates (or replaces) the caller's TOTP secret and ten recovery codes and answers
///   200 `{"otpauth_uri": "otpauth://totp/AuthTestServer:<name>?…", "recovery_codes": ["xxxx-xxxx", …]}`.
///   From then on a correct password answers `mfa_required` (``LoginPolicy/mfaWhenEnrolled``).
/// - Verify: `{"challenge_id", "method": "totp" | "recovery_code", "code"}` answers a token
///   response (counts a login), 401 `invalid_code`, 400 `challenge_expired` (unknown, expired or
///   already answered), or 429 `locked_out` with `Retry-After` after five wrong codes in five
///   minutes (every code is then refused for five minutes). A recovery code works once.
struct MFARoutes: RouteGroup {
    struct Enrolled: Encodable {
        let otpauthURI: String
        let recoveryCodes: [String]
        enum CodingKeys: String, CodingKey {
            case otpauthURI = "otpauth_uri"
            case recoveryCodes = "recovery_codes"
        }
    }

    struct VerifyRequest: Decodable {
        let challengeID: String
        let method: String
        let code: String
        enum CodingKeys: String, CodingKey {
            case challengeID = "challenge_id"
            case method
            case code
        }
    }

    func addRoutes(to router: Router<BasicRequestContext>, environment: RouteEnvironment) {
        let mfa = environment.state.mfa
        let limit = environment.configuration.maxBodySize
        router.post("/auth/mfa/totp/enroll") { request, _ in
            try await enroll(request, mfa: mfa, environment: environment)
        }
        router.post("/auth/mfa/verify") { request, _ in
            try await verify(request, mfa: mfa, environment: environment, limit: limit)
        }
    }

    private func enroll(_ request: Request, mfa: MFAServerState, environment: RouteEnvironment) async throws -> Response {
        let claims: AccessTokenClaims
        switch await environment.authenticate(request) {
        case .failure(let rejection): return rejection.response
        case .success(let success): claims = success
        }
        guard !claims.isGuest else {
            return ServerResponse.error(.forbidden, "forbidden", description: "a guest cannot enrol a second factor")
        }
        guard let user = await environment.state.user(id: claims.sub) else {
            return ServerResponse.invalidToken(AuthTestServerError(.accessTokenRevoked, "the token's user no longer exists"))
        }
        let enrollment = try await mfa.enroll(userID: user.id, label: user.username)
        environment.counters.record(.custom(MFACounter.enrollments))
        environment.logger.info("TOTP enrolled", metadata: ["user_id": .string(user.id)])
        return ServerResponse.json(.ok, Enrolled(otpauthURI: enrollment.uri.uriString, recoveryCodes: enrollment.recoveryCodes.map(\.formatted)))
    }

    private func verify(_ request: Request, mfa: MFAServerState, environment: RouteEnvironment, limit: Int) async throws -> Response {
        guard let body = try await request.decodeJSON(VerifyRequest.self, upTo: limit) else {
            return ServerResponse.error(.badRequest, "invalid_request", description: "body must be JSON {challenge_id, method, code}")
        }
        let answer = try await mfa.answer(challengeID: body.challengeID, method: MFAMethod(rawValue: body.method), code: body.code)
        switch answer {
        case .accepted(let userID, let method):
            let tokens = try await environment.state.issueTokens(forUserID: userID)
            environment.counters.record(.login)
            environment.counters.record(.custom(MFACounter.verified))
            if method == .recoveryCode { environment.counters.record(.custom(MFACounter.recoveryCodesUsed)) }
            return ServerResponse.json(.ok, tokens)
        case .invalidCode:
            environment.counters.record(.custom(MFACounter.invalidCodes))
            return ServerResponse.error(.unauthorized, "invalid_code", description: "the code is wrong or was already used")
        case .lockedOut(let until):
            environment.counters.record(.custom(MFACounter.lockedOut))
            let seconds = max(1, Int(until.timeIntervalSince(environment.clock.now()).rounded(.up)))
            var headers = HTTPFields()
            headers[.retryAfter] = String(seconds)
            return ServerResponse.error(.tooManyRequests, "locked_out", description: "too many wrong codes; try again in \(seconds) s", headers: headers)
        case .expiredChallenge:
            environment.counters.record(.custom(MFACounter.expiredChallenges))
            return ServerResponse.error(.badRequest, "challenge_expired", description: "the challenge is unknown, expired or already answered; sign in again")
        case .unsupportedMethod:
            return ServerResponse.error(.badRequest, "invalid_request", description: "the challenge does not offer the method \(body.method)")
        }
    }
}
