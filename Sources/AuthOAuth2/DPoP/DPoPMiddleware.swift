// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
import Foundation
import HTTPTypes

/// Puts a DPoP proof (RFC 9449 §7) on every request that carries a DPoP-bound token
/// (`Authorization: DPoP <token>`) to its scope's origins, with `ath` the token's hash, and
/// answers a resource server's nonce challenge (a 401 with `use_dpop_nonce` and a `DPoP-Nonce`)
/// once with a new proof.
///
/// Registered in the `proof` phase by `container.useDPoP(_:allowedHosts:)`, after the
/// authentication middleware and before any signer, so each retry and redirect hop gets a proof of its own.
public struct DPoPMiddleware: Middleware {
    private let keyring: DPoPKeyring
    private let account: AccountKey
    private let vault: CredentialVault
    private let scope: CredentialScope

    /// Creates the middleware for one account.
    public init(keyring: DPoPKeyring, account: AccountKey, vault: CredentialVault, scope: CredentialScope) {
        self.keyring = keyring
        self.account = account
        self.vault = vault
        self.scope = scope
    }

    /// Adds the proof, sends, and answers one nonce challenge.
    public nonisolated(nonsending) func intercept(_ request: AuthRequest, next: Next) async throws -> AuthResponse {
        guard let token = Self.boundToken(request), scope.admits(request, credential: "DPoP proof") else { return try await next(request) }
        let dpop = try await keyring.dpop(for: account, vault: vault)
        let proved = try await Self.proved(request, token: token, dpop: dpop)
        let response = try await next(proved)
        guard dpop.shouldRetry(response, for: proved) else { return response }
        let again = try await Self.proved(request, token: token, dpop: dpop)
        let answer = try await next(again)
        _ = dpop.shouldRetry(answer, for: again)  // keeps a nonce the server rotated with this answer
        return answer
    }

    private static func proved(_ request: AuthRequest, token: String, dpop: DPoP) async throws -> AuthRequest {
        guard let url = request.url else { throw AuthError.invalidRequest("a DPoP proof needs the request's URL") }
        var proved = request
        proved.head.headerFields[DPoP.field] = try await dpop.proof(method: request.head.method.rawValue, url: url, accessToken: token)
        proved.markSecret(header: "dpop")
        return proved
    }

    /// The token of `Authorization: DPoP <token>`.
    static func boundToken(_ request: AuthRequest) -> String? {
        guard let value = request.head.headerFields[.authorization], value.count > 5, value.prefix(5).lowercased() == "dpop " else { return nil }
        return String(value.dropFirst(5))
    }
}
