// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
public import Foundation

/// What a cookie session is renewed with: the sign-in credentials, kept in the vault, and which
/// sign-in established the current session.
///
/// The session cookies themselves live in the account's ``CookieJar``; this credential changes
/// on every sign-in (a new ``signInID`` and ``establishedAt``), which is how concurrent requests
/// that saw the old session tell that another request already signed in again. The password is
/// kept only when the user opted in (`Login.keepsPasswordForReLogin`), so that the session can be
/// re-established without them: configure a ``/AuthCore/CredentialCipher`` on the vault to seal it at rest.
public struct CookieSessionCredential: Credential {
    /// `cookie-session`.
    public static let kind = "cookie-session"
    /// The user name posted to the login endpoint.
    public var username: String
    /// The password posted to the login endpoint, when it is kept for signing in again.
    public var password: Secret?
    /// When the current session was established (by the strategy's clock).
    public var establishedAt: Date
    /// A new random value for every sign-in, so two sign-ins never compare equal even when the
    /// clock did not move between them.
    public var signInID: UUID

    /// Creates a credential.
    /// - Parameters:
    ///   - username: The user name.
    ///   - password: The password, to keep for signing in again; nil to keep none.
    ///   - establishedAt: When the session was established.
    ///   - signInID: Identifies this sign-in; a new random one by default.
    public init(username: String, password: String?, establishedAt: Date, signInID: UUID = UUID()) {
        self.username = username
        self.password = password.map(Secret.init)
        self.establishedAt = establishedAt
        self.signInID = signInID
    }

    /// A session has no expiry known in advance; the server says when it ended.
    public var expiresAt: Date? { nil }

    /// Nothing: the cookie middleware attaches the session cookies, the strategy the CSRF header.
    public func authorize(_ request: inout AuthRequest) {}

    /// User name and session start; never the password.
    public var description: String {
        "CookieSessionCredential(username: \(username), password: \(password == nil ? "none" : "<redacted>"), establishedAt: \(establishedAt))"
    }
}
