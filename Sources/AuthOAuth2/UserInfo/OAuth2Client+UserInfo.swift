// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
import Foundation
import HTTPTypes

extension OAuth2Client {
    /// Asks the provider's userinfo endpoint (OpenID Connect Core 1.0 §5.3) about the user of an
    /// account, through the account's own client: its access token is renewed first when due, and
    /// is attached only when the endpoint's origin is one its strategy allows.
    ///
    /// When the account's tokens hold an ID token, the answer's `sub` must be that token's
    /// (OpenID Connect Core §5.3.4: a userinfo answer for another user is a substitution), and a
    /// mismatch is refused. The ID token itself was validated when it was obtained
    /// (``validateIDToken(_:nonce:clockSkew:)``); only its `sub` is read here.
    ///
    /// ```swift
    /// let me = try await app.userInfo(for: aliceClient)
    /// print(me.subject, me.email ?? "-")
    /// ```
    /// - Parameter account: The account's client, made by `container.makeClient(for:strategy:)`.
    /// - Returns: The claims.
    /// - Throws: `AuthError` `.misconfigured` when the provider has no userinfo endpoint;
    ///   `.authorizationFailed` when `sub` is not the ID token's; `.httpStatus` for an error
    ///   answer (a 401 when the endpoint's origin is not allowed for the account's strategy);
    ///   `.decoding` for an answer that is not a JSON object with `sub` (a signed or encrypted
    ///   userinfo JWT is not read).
    public func userInfo<S: AuthStrategy>(for account: AccountClient<S>) async throws -> UserInfo where S.Value == BearerTokenSet {
        let endpoint = try await userInfoEndpoint()
        let tokens = try await account.session.credentialForRequest()
        let response = try await account.send(.get, endpoint, headerFields: [.accept: "application/json"])
        return try Self.userInfo(from: response, expectedSubject: Self.subject(of: tokens))
    }

    /// Asks the provider's userinfo endpoint about the user of `tokens`, sent with the client's
    /// own transport (the provider issued the token; no account is involved).
    ///
    /// - Parameters:
    ///   - tokens: Bearer tokens this provider issued. A DPoP-bound token is refused: use
    ///     ``userInfo(for:)`` with an account whose requests carry proofs.
    ///   - expectedSubject: The `sub` the answer must carry; by default the one of `tokens`'
    ///     ID token, when they hold one.
    /// - Returns: The claims.
    /// - Throws: As ``userInfo(for:)``.
    public func userInfo(with tokens: BearerTokenSet, expectedSubject: String? = nil) async throws -> UserInfo {
        guard tokens.tokenType.lowercased() == "bearer" else {
            throw AuthError(code: .misconfigured, message: "a \(tokens.tokenType) token needs its proof: ask the userinfo endpoint through the account's client (userInfo(for:))")
        }
        let endpoint = try await userInfoEndpoint()
        var request = try AuthRequest(method: .get, url: endpoint, headerFields: [.accept: "application/json"])
        tokens.authorize(&request)
        let response = try await transport.send(request, within: limits, reading: "the userinfo endpoint")
        return try Self.userInfo(from: response, expectedSubject: expectedSubject ?? Self.subject(of: tokens))
    }

    private func userInfoEndpoint() async throws -> URL {
        let metadata = try await provider.metadata()
        guard let endpoint = metadata.userinfoEndpoint else {
            throw AuthError(code: .misconfigured, message: "the provider \(metadata.issuer.absoluteString) has no userinfo endpoint")
        }
        return endpoint
    }

    /// The `sub` of the ID token among `tokens`, when there is one that can be read.
    static func subject(of tokens: BearerTokenSet) -> String? {
        tokens.idToken.flatMap { try? JWT.decode($0.reveal).subject }
    }

    /// The claims of a userinfo answer, `sub` checked against `expectedSubject`.
    static func userInfo(from response: AuthResponse, expectedSubject: String?) throws -> UserInfo {
        guard response.status.code == 200 else {
            throw AuthError(code: .httpStatus, message: "the userinfo endpoint answered \(response.status.code)", status: response.status.code)
        }
        let info: UserInfo
        do {
            info = try JSONDecoder().decode(UserInfo.self, from: response.body)
        } catch {
            let type = response.head.headerFields[.contentType] ?? "no content type"
            throw AuthError(code: .decoding, message: "the userinfo answer (\(type.prefix(60))) is not a JSON object with a string sub: \(DecodingFailure(error))")
        }
        if let expectedSubject, info.subject != expectedSubject {
            throw AuthError(code: .authorizationFailed, message: "the userinfo answer is about another user (its sub is not the ID token's): refused")
        }
        return info
    }
}
