// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
public import Foundation

/// A logout at the provider in progress (OpenID Connect RP-Initiated Logout 1.0): the URL to
/// open in the user's browser, and what ``OAuth2Client/completeLogout(_:redirect:)`` checks
/// when the browser comes back.
///
/// Its `description` shows the end-session endpoint and the redirect URI only: the URL carries
/// the ID token as `id_token_hint`.
public struct PendingLogout: Sendable, Equatable, Codable, CustomStringConvertible, CustomReflectable {
    /// The logout request to open: the provider's end-session endpoint with `id_token_hint`,
    /// `client_id`, `post_logout_redirect_uri` and `state`.
    public let url: URL
    /// The `state` the redirect after the logout must carry back, when a redirect was asked for.
    public let state: String?
    /// Where the provider sends the browser after the logout, when one was asked for.
    public let postLogoutRedirectURI: URL?
    /// The provider's issuer.
    public let issuer: URL

    /// Creates the record; ``OAuth2Client/startLogout(idToken:postLogoutRedirectURI:parameters:)``
    /// makes one.
    public init(url: URL, state: String?, postLogoutRedirectURI: URL?, issuer: URL) {
        self.url = url
        self.state = state
        self.postLogoutRedirectURI = postLogoutRedirectURI
        self.issuer = issuer
    }

    /// The end-session endpoint and the redirect URI, never the ID token.
    public var description: String {
        "PendingLogout(\(url.scheme ?? "?")://\(url.host ?? "?")\(url.port.map { ":\($0)" } ?? "")\(url.path) → \(postLogoutRedirectURI?.absoluteString ?? "no redirect"))"
    }

    /// The same as ``description``.
    public var customMirror: Mirror {
        Mirror(self, children: ["endpoint": description, "state": state == nil ? "none" : "present"], displayStyle: .struct)
    }
}

extension ErrorCode where Domain == AuthError {
    /// A logout at the provider (OpenID Connect RP-Initiated Logout) did not complete as asked:
    /// the browser came back to another address than the `post_logout_redirect_uri`, or without
    /// the logout's `state`. The local sign-out is not affected.
    public static var logoutFailed: Self { Self("logoutFailed") }
}
