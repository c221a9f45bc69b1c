// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// The server's mutable state: users, token families and refresh tokens.
///
/// Route groups (built in and added through ``AuthTestServer/Configuration/routeGroups``) share
/// one instance. Token issuing and checking live here so every endpoint (login, a later MFA
/// verify, refresh) builds token responses the same way.
///
/// ```swift
/// let state = server.state
/// let user = try #require(await state.user(named: "alice"))
/// let tokens = try await state.issueTokens(forUserID: user.id)
/// ```
public actor ServerState {
    /// The clock every expiry check reads.
    public nonisolated let clock: ServerClock
    /// Signs and verifies access tokens.
    public nonisolated let signer: JWTSigner
    /// Token lifetimes in seconds.
    public nonisolated let lifetimes: TokenLifetimes
    /// Counters for tests.
    public nonisolated let counters: CounterRecorder
    /// The MFA enrolments, challenges and lockouts, for the server's whole life (across a stop
    /// and a new start, as its users are); the login policy and the MFA routes share it.
    nonisolated let mfa: MFAServerState

    private var usersByName: [String: UserRecord] = [:]
    private var usersByID: [String: UserRecord] = [:]
    var families: [String: TokenFamily] = [:]
    var refreshTokens: [String: RefreshTokenRecord] = [:]

    /// Creates empty state.
    /// - Parameters:
    ///   - clock: The server clock.
    ///   - signer: The access-token signer.
    ///   - lifetimes: Token lifetimes.
    ///   - counters: Where events are counted.
    public init(clock: ServerClock, signer: JWTSigner, lifetimes: TokenLifetimes, counters: CounterRecorder) {
        self.clock = clock
        self.signer = signer
        self.lifetimes = lifetimes
        self.counters = counters
        self.mfa = MFAServerState(clock: clock)
    }

    // MARK: Users

    /// Adds a user; `nil` when the name is taken.
    /// - Parameters:
    ///   - username: The unique name.
    ///   - passwordHash: The bcrypt hash of the password (never the password).
    public func register(username: String, passwordHash: String) -> UserRecord? {
        guard usersByName[username] == nil else { return nil }
        let user = UserRecord(id: UUID().uuidString, username: username, passwordHash: passwordHash, createdAt: clock.now())
        usersByName[username] = user
        usersByID[user.id] = user
        return user
    }

    /// The user with this name, if registered.
    /// - Parameter username: The user name.
    public func user(named username: String) -> UserRecord? {
        usersByName[username]
    }

    /// The user with this id, if registered.
    /// - Parameter id: The user id.
    public func user(id: String) -> UserRecord? {
        usersByID[id]
    }

    /// Sets (or, with `nil`, removes) an extension attribute of a user.
    /// - Parameters:
    ///   - value: The new value.
    ///   - key: The attribute name.
    ///   - userID: The user id; unknown ids are ignored.
    public func setAttribute(_ value: String?, forKey key: String, userID: String) {
        guard var user = usersByID[userID] else { return }
        user.attributes[key] = value
        usersByID[userID] = user
        usersByName[user.username] = user
    }

    // MARK: Access tokens

    /// Checks an access token: signature, expiry against the server clock, family revocation.
    /// - Parameter token: The compact JWT from the `Authorization` header.
    /// - Throws: ``AuthTestServerError`` (`malformedToken`, `unsupportedAlgorithm`, `badSignature`,
    ///   `accessTokenExpired`, `accessTokenRevoked`).
    public func validateAccessToken(_ token: String) throws(AuthTestServerError) -> AccessTokenClaims {
        let claims = try signer.verify(token)
        guard !claims.isExpired(at: clock.now()) else {
            throw AuthTestServerError(.accessTokenExpired, "access token expired")
        }
        guard let family = families[claims.fam], !family.revoked else {
            throw AuthTestServerError(.accessTokenRevoked, "access token was revoked")
        }
        return claims
    }

    /// Revokes a whole token family: its refresh and access tokens are refused from now on.
    /// - Parameter id: The family id (the `fam` claim).
    public func revokeFamily(id: String) {
        families[id]?.revoked = true
    }

    /// Refuses every refresh token of a user's families (a server-side revocation).
    ///
    /// Access tokens already issued stay valid until they expire, as with any stateless JWT.
    /// - Parameter username: The user name.
    /// - Returns: How many families were affected.
    @discardableResult
    public func revokeRefreshTokens(username: String) -> Int {
        guard let user = usersByName[username] else { return 0 }
        var affected = 0
        for (id, family) in families where family.subject == user.id && !family.refreshRevoked {
            families[id]?.refreshRevoked = true
            affected += 1
        }
        return affected
    }
}

/// Token lifetimes in seconds.
public struct TokenLifetimes: Sendable, Equatable {
    /// Access-token lifetime (default 300 s).
    public var access: Int
    /// Refresh-token lifetime (default 30 days).
    public var refresh: Int
    /// Guest access-token lifetime (default 60 s).
    public var guest: Int

    /// Creates lifetimes.
    /// - Parameters:
    ///   - access: Access-token lifetime.
    ///   - refresh: Refresh-token lifetime.
    ///   - guest: Guest-token lifetime.
    public init(access: Int = 300, refresh: Int = 30 * 24 * 3600, guest: Int = 60) {
        self.access = access
        self.refresh = refresh
        self.guest = guest
    }
}
