// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Foundation
import Crypto

extension ServerState {
    /// Starts a new token family for a user and returns its first token response.
    ///
    /// This is the one place login-like endpoints (password login, a later MFA verify) get tokens.
    /// - Parameter userID: The user id (becomes `sub`).
    /// - Throws: An encoding error from signing (not expected).
    public func issueTokens(forUserID userID: String) throws -> TokenResponse {
        let family = TokenFamily(id: UUID().uuidString, subject: userID)
        families[family.id] = family
        return try issue(in: family, withRefreshToken: true)
    }

    /// Starts a guest session: a short-lived access token, no refresh token, `sub` = `guest:<device id>`.
    /// - Parameter deviceID: The caller's `X-Device-ID`.
    /// - Throws: An encoding error from signing (not expected).
    public func issueGuestToken(deviceID: String) throws -> TokenResponse {
        let family = TokenFamily(id: UUID().uuidString, subject: AccessTokenClaims.guestPrefix + deviceID)
        families[family.id] = family
        return try issue(in: family, withRefreshToken: false)
    }

    /// Exchanges a refresh token for new tokens, rotating the refresh token.
    ///
    /// Reusing an already-rotated token revokes the whole family and counts `rejectedReuse`.
    /// - Parameter refreshToken: The presented refresh token.
    /// - Throws: ``AuthTestServerError`` (`refreshTokenUnknown`, `refreshTokenRevoked`,
    ///   `refreshTokenReused`, `refreshTokenExpired`).
    public func refresh(_ refreshToken: String) throws -> TokenResponse {
        let key = Self.digest(refreshToken)
        guard let record = refreshTokens[key] else {
            throw AuthTestServerError(.refreshTokenUnknown, "refresh token is not known")
        }
        guard let family = families[record.familyID], !family.revoked else {
            throw AuthTestServerError(.refreshTokenRevoked, "refresh token was revoked")
        }
        if record.rotated {
            families[family.id]?.revoked = true
            counters.record(.rejectedReuse)
            throw AuthTestServerError(.refreshTokenReused, "refresh token was already used; the token family is revoked")
        }
        guard !family.refreshRevoked else {
            throw AuthTestServerError(.refreshTokenRevoked, "refresh token was revoked")
        }
        guard record.expiresAt > clock.now() else {
            throw AuthTestServerError(.refreshTokenExpired, "refresh token expired")
        }
        refreshTokens[key]?.rotated = true
        let response = try issue(in: family, withRefreshToken: true)
        counters.record(.renewal)
        return response
    }

    private func issue(in family: TokenFamily, withRefreshToken: Bool) throws -> TokenResponse {
        let now = clock.now()
        let isGuest = family.subject.hasPrefix(AccessTokenClaims.guestPrefix)
        let lifetime = isGuest ? lifetimes.guest : lifetimes.access
        let claims = AccessTokenClaims(subject: family.subject, issuedAt: now, lifetime: lifetime, family: family.id)
        let accessToken = try signer.sign(claims)
        var refreshToken: String?
        if withRefreshToken {
            let token = Self.randomToken()
            refreshTokens[Self.digest(token)] = RefreshTokenRecord(
                familyID: family.id,
                expiresAt: now.addingTimeInterval(TimeInterval(lifetimes.refresh))
            )
            refreshToken = token
        }
        return TokenResponse(accessToken: accessToken, expiresIn: lifetime, refreshToken: refreshToken)
    }

    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Base64URL.encode(Data(bytes))
    }

    static func digest(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}
