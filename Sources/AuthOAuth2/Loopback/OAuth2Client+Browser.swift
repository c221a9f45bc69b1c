// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
public import Foundation

extension OAuth2Client {
    /// Signs a user in through their browser, for a command-line tool (RFC 8252): listens on
    /// 127.0.0.1 for the redirect, starts the authorization code flow with PKCE, lets `open`
    /// show the URL (print it, or launch a browser), waits for the redirect that carries the
    /// authorization's `state` (``LoopbackRedirectListener``) and completes.
    ///
    /// ```swift
    /// let tokens = try await app.signInWithBrowser(scopes: ["openid", "profile"]) { url in
    ///     print("Open \(url) to sign in")
    /// }
    /// try await aliceClient.signIn(tokens)
    /// ```
    /// - Parameters:
    ///   - scopes: The scopes to ask for.
    ///   - parameters: Further authorization request parameters.
    ///   - pushed: Push the authorization request (RFC 9126); done anyway when the provider
    ///     requires it.
    ///   - signed: Send the request as a request object signed with the client's key (RFC 9101).
    ///   - timeout: How long the user has to finish.
    ///   - open: Shows the authorization URL to the user.
    /// - Throws: What ``LoopbackRedirectListener`` and ``completeAuthorization(_:redirect:)``
    ///   throw, or what `open` throws.
    public nonisolated(nonsending) func signInWithBrowser(
        scopes: [String], parameters: [(String, String)] = [], pushed: Bool = false, signed: Bool = false, timeout: Duration = .seconds(300),
        open: (URL) async throws -> Void
    ) async throws -> BearerTokenSet {
        let listener = try await LoopbackRedirectListener.bind()
        do {
            let pending = try await startAuthorization(redirectURI: listener.redirectURI, scopes: scopes, parameters: parameters, pushed: pushed, signed: signed)
            // Waiting (and so answering the browser) begins before `open` is called, which may
            // not return until the browser has come back.
            async let redirect = listener.waitForRedirect(of: pending, timeout: timeout)
            try await open(pending.url)
            return try await completeAuthorization(pending, redirect: redirect)
        } catch {
            await listener.close()
            throw error
        }
    }
}
