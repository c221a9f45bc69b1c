// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
public import Foundation
import HTTPTypes

/// A middleware that signs every request to its origins that it passes on, with a fresh time
/// each time.
///
/// Place it innermost: after authentication and just before the transport, so that every retry
/// and every redirect hop goes through it again and is signed again with a fresh timestamp (and
/// nonce, for signers that use one). Before signing it has the signer remove what it left on a
/// previous hop (``RequestSigner/removeSignature(from:)``), so a request never carries two
/// signatures of one signer, and keeps those of other signers: two signing middlewares with RFC
/// 9421 signers of different labels send both signatures. After signing it marks every field and
/// query item the signer wrote secret (``/AuthCore/AuthRequest/markSecretsAdded(since:)``), so that
/// wherever it sits a redirect to another origin drops them.
///
/// A signature made with your key (and a SigV4 session token) is a credential: only requests to
/// an origin of `allowedHosts` are signed, on the first request and on every redirect hop. A
/// request to any other origin passes on unsigned and ``/AuthCore/AuthEvent/credentialWithheld(_:)``
/// reports it (see ``/AuthCore/CredentialScope``).
///
/// ```swift
/// let signing = SigningMiddleware(signer: signer, allowedHosts: AllowedHosts(["api.example.com"]))
/// let middlewares: [any Middleware] = [retry, authentication, signing]
/// ```
public struct SigningMiddleware: Middleware {
    /// The signer run for every request to the scope's origins.
    public let signer: any RequestSigner
    /// The origins whose requests are signed.
    public let scope: CredentialScope
    private let now: @Sendable () -> Date
    private let credential: String

    /// Creates a signing middleware.
    /// - Parameters:
    ///   - signer: Signs each request.
    ///   - scope: The origins whose requests are signed, and where a withheld signature is
    ///     reported.
    ///   - now: The clock; read once per request.
    public init(signer: any RequestSigner, scope: CredentialScope, now: @escaping @Sendable () -> Date = { Date() }) {
        self.signer = signer
        self.scope = scope
        self.now = now
        self.credential = "\(type(of: signer)) signature"
    }

    /// Creates a signing middleware for the requests to `allowedHosts`.
    /// - Parameters:
    ///   - signer: Signs each request.
    ///   - allowedHosts: The origins whose requests are signed.
    ///   - now: The clock; read once per request.
    public init(signer: any RequestSigner, allowedHosts: AllowedHosts, now: @escaping @Sendable () -> Date = { Date() }) {
        self.init(signer: signer, scope: CredentialScope(allowedHosts: allowedHosts), now: now)
    }

    /// Removes the signer's stale signature, signs the request and passes it on; passes a request to
    /// an origin outside the scope on unsigned.
    /// - Throws: What the signer throws (the request is then not sent), or what `next` throws.
    public nonisolated(nonsending) func intercept(_ request: AuthRequest, next: Next) async throws -> AuthResponse {
        guard scope.admits(request, credential: credential) else { return try await next(request) }
        var signed = request
        signer.removeSignature(from: &signed)
        let unsigned = signed
        try await signer.sign(&signed, at: now())
        // Marked, so that a redirect to another origin drops the whole signature (key id,
        // nonce, date, digest and any query item too) when this middleware sits outside the
        // redirect middleware.
        signed.markSecretsAdded(since: unsigned)
        return try await next(signed)
    }
}
