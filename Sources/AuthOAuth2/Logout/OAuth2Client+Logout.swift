// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
public import Foundation

extension OAuth2Client {
    /// Starts a logout at the provider (OpenID Connect RP-Initiated Logout 1.0): the URL of
    /// its `end_session_endpoint` to open in the user's browser.
    ///
    /// ```swift
    /// let pending = try await app.startLogout(idToken: tokens.idToken, postLogoutRedirectURI: callbackURL)
    /// print("Open \(pending.url) to sign out")
    /// ```
    /// - Parameters:
    ///   - idToken: The ID token of the sign-in to end, sent as `id_token_hint` (providers need
    ///     it to send the browser back).
    ///   - postLogoutRedirectURI: Where the provider sends the browser afterwards (registered
    ///     with the provider); a `state` goes with it. https, or http on a loopback host.
    ///   - parameters: Further parameters (`ui_locales`, `logout_hint`); they cannot replace the
    ///     ones this method sets.
    /// - Throws: `AuthError` `.misconfigured` when the provider has no end-session endpoint;
    ///   `.invalidRequest` for a redirect URI that is neither https nor loopback http; what
    ///   fetching the metadata throws.
    public func startLogout(idToken: Secret?, postLogoutRedirectURI: URL? = nil, parameters: [(String, String)] = []) async throws -> PendingLogout {
        let metadata = try await provider.metadata()
        guard let endpoint = metadata.endSessionEndpoint else {
            throw AuthError(code: .misconfigured, message: "the provider \(metadata.issuer.absoluteString) has no end_session_endpoint: it offers no RP-initiated logout")
        }
        var items: [(String, String)] = [("client_id", clientID)]
        if let idToken { items.append(("id_token_hint", idToken.reveal)) }
        var state: String?
        if let postLogoutRedirectURI {
            do {
                try OAuth2Provider.checkScheme(of: postLogoutRedirectURI, named: "post_logout_redirect_uri")
            } catch {
                throw AuthError.invalidRequest("the post_logout_redirect_uri \(postLogoutRedirectURI.absoluteString) is neither https nor http on a loopback host")
            }
            state = PKCE.randomToken()
            items += [("post_logout_redirect_uri", postLogoutRedirectURI.absoluteString), ("state", state ?? "")]
        }
        let reserved = Set(items.map(\.0))
        items += parameters.filter { !reserved.contains($0.0) }
        var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false)
        let existing = components?.percentEncodedQuery.map { $0 + "&" } ?? ""
        components?.percentEncodedQuery = existing + FormURLEncoding.query(items)
        guard let url = components?.url else {
            throw AuthError(code: .misconfigured, message: "the provider's end_session_endpoint is not a URL a request can be added to")
        }
        return PendingLogout(url: url, state: state, postLogoutRedirectURI: postLogoutRedirectURI, issuer: metadata.issuer)
    }

    /// Checks the redirect the browser came back with after a logout: it goes to the logout's
    /// `post_logout_redirect_uri` (scheme, host, port and path: a redirect to any other origin
    /// is refused) and carries its `state`, once.
    /// - Throws: `AuthError` `.logoutFailed` naming what did not match; `.invalidRequest` when
    ///   the logout asked for no redirect.
    public func completeLogout(_ pending: PendingLogout, redirect: URL) throws {
        guard let expected = pending.postLogoutRedirectURI, let state = pending.state else {
            throw AuthError.invalidRequest("this logout asked for no redirect: there is nothing to complete")
        }
        guard Self.sameEndpoint(redirect, expected) else {
            let origin = Self.origin(of: redirect)?.description ?? "an address without an origin"
            throw AuthError(code: .logoutFailed, message: "the logout redirect goes to \(origin)\(redirect.path), not to the post_logout_redirect_uri \(expected.absoluteString): refused")
        }
        let answer = AuthorizationResponse(redirect: redirect)
        guard answer.repeatedParameters.isEmpty, answer.state == state else {
            throw AuthError(code: .logoutFailed, message: "the logout redirect does not carry this logout's state (once): it was not started here")
        }
    }

    /// Logs the user out at the provider through their browser, for a command-line tool:
    /// listens on 127.0.0.1 for the redirect after the logout (``LoopbackRedirectListener``,
    /// path `/logged-out`, to be registered as a `post_logout_redirect_uri` on any port), lets
    /// `open` show the end-session URL, waits for the redirect that carries the logout's `state`
    /// and checks it (``completeLogout(_:redirect:)``).
    /// - Parameters:
    ///   - idToken: The ID token of the sign-in to end.
    ///   - timeout: How long the user has to finish.
    ///   - open: Shows the URL to the user.
    /// - Throws: What ``startLogout(idToken:postLogoutRedirectURI:parameters:)``,
    ///   ``LoopbackRedirectListener`` and ``completeLogout(_:redirect:)`` throw, or what `open`
    ///   throws.
    public nonisolated(nonsending) func logOutWithBrowser(idToken: Secret?, timeout: Duration = .seconds(300), open: (URL) async throws -> Void) async throws {
        let listener = try await LoopbackRedirectListener.bind(path: "/logged-out", page: LoopbackRedirectListener.loggedOutPage)
        do {
            let pending = try await startLogout(idToken: idToken, postLogoutRedirectURI: listener.redirectURI)
            async let redirect = listener.waitForLogoutRedirect(of: pending, timeout: timeout)
            try await open(pending.url)
            try completeLogout(pending, redirect: try await redirect)
        } catch {
            await listener.close()
            throw error
        }
    }

    /// Signs an account out at the provider and here: the browser logout with the account's ID
    /// token (``logOutWithBrowser(idToken:timeout:open:)``), then ``signOut(_:)`` (revocation,
    /// local credential and DPoP key removed). The local sign-out happens also when the browser
    /// logout fails, whose error is then thrown.
    /// - Throws: What the browser logout throws, after the local sign-out; what removing the
    ///   local credential throws.
    public nonisolated(nonsending) func signOutWithBrowser<S: AuthStrategy>(
        _ account: AccountClient<S>, timeout: Duration = .seconds(300), open: (URL) async throws -> Void
    ) async throws where S.Value == BearerTokenSet {
        let idToken = try? await account.session.vault.load(BearerTokenSet.self, for: account.account)?.idToken
        let logout: Result<Void, any Error>
        do {
            try await logOutWithBrowser(idToken: idToken ?? nil, timeout: timeout, open: open)
            logout = .success(())
        } catch {
            logout = .failure(error)
        }
        try await signOut(account)
        try logout.get()
    }
}
