// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
import Foundation

extension OAuth2Client {
    /// Revokes a token at the provider (RFC 7009).
    /// - Parameters:
    ///   - token: The token.
    ///   - hint: `refresh_token` or `access_token`.
    /// - Throws: `AuthError` `.misconfigured` when the provider has no revocation endpoint, or
    ///   the endpoint's error (see ``OAuth2TokenEndpoint``).
    public func revoke(_ token: Secret, hint: String) async throws {
        let metadata = try await provider.metadata()
        guard let endpoint = metadata.revocationEndpoint else {
            throw AuthError(code: .misconfigured, message: "the provider \(metadata.issuer.absoluteString) has no revocation endpoint")
        }
        let response = try await tokenEndpoint().post([("token", token.reveal), ("token_type_hint", hint)], to: endpoint)
        guard (200..<300).contains(response.status.code) else { throw OAuth2TokenEndpoint.error(from: response) }
    }

    /// Signs an account out everywhere it can: revokes its refresh token, then its access token,
    /// at the provider (RFC 7009), then removes the local credential and the account's DPoP key.
    ///
    /// The revocation is best effort: each token is revoked on its own, and when one fails
    /// (provider unreachable, no revocation endpoint, an error answer), or the stored tokens
    /// cannot be read, ``/AuthCore/AuthEvent/revocationFailed(_:reason:)`` reports it and the local
    /// credential is removed all the same, so a sign-out always signs out.
    ///
    /// ```swift
    /// try await app.signOut(aliceClient)
    /// ```
    /// - Throws: What removing the local credential throws (`.storage`).
    public func signOut<S: AuthStrategy>(_ account: AccountClient<S>) async throws where S.Value == BearerTokenSet {
        let session = account.session
        func report(_ error: any Error, _ what: String) {
            let reason = (error as? AuthError)?.message ?? String(describing: type(of: error))
            session.events.emit(.revocationFailed(account.account, reason: "\(what): \(reason)"))
        }
        do {
            if let tokens = try await session.vault.load(BearerTokenSet.self, for: account.account) {
                let pairs = [(tokens.refreshToken, "refresh_token"), (tokens.accessToken as Secret?, "access_token")]
                for case let (token?, hint) in pairs {
                    do { try await revoke(token, hint: hint) } catch { report(error, hint) }
                }
            }
        } catch {
            report(error, "reading the stored tokens")
        }
        try await account.signOut()
        try await session.vault.delete(for: account.account, item: DPoPKey.item)
    }
}
