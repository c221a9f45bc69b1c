// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
public import Foundation

/// An authorization in progress: the URL to open in the user's browser, and what completing it
/// needs (the state to check, the PKCE verifier, the redirect URI).
///
/// `Codable`, so that a tool can keep it between starting and completing; the verifier is a
/// ``/AuthCore/Secret`` and its `description` shows only the URL's origin and the state's length.
public struct PendingAuthorization: Sendable, Equatable, Codable, CustomStringConvertible {
    /// The authorization request to open: the provider's authorization endpoint with the
    /// client id, redirect URI, scopes, `state`, `nonce` and the PKCE challenge.
    public let url: URL
    /// The `state` the answer must carry back.
    public let state: String
    /// The OpenID Connect `nonce` the ID token must carry, when one was sent.
    public let nonce: String?
    /// The PKCE proof.
    public let pkce: PKCE
    /// Where the provider sends the browser back.
    public let redirectURI: URL
    /// The issuer whose answer this waits for (RFC 9207).
    public let issuer: URL
    /// Whether the authorization asked for `openid`: the answer must then bring an ID token
    /// that validates.
    public let openID: Bool

    enum CodingKeys: String, CodingKey { case url, state, nonce, pkce, redirectURI, issuer, openID }

    /// Creates the record; ``OAuth2Client/startAuthorization(redirectURI:scopes:nonce:parameters:pushed:signed:)``
    /// makes one.
    public init(url: URL, state: String, nonce: String?, pkce: PKCE, redirectURI: URL, issuer: URL, openID: Bool = false) {
        self.url = url
        self.state = state
        self.nonce = nonce
        self.pkce = pkce
        self.redirectURI = redirectURI
        self.issuer = issuer
        self.openID = openID || nonce != nil
    }

    /// Decodes a kept record (one written before `openID` existed reads it from its nonce).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        url = try c.decode(URL.self, forKey: .url)
        state = try c.decode(String.self, forKey: .state)
        nonce = try c.decodeIfPresent(String.self, forKey: .nonce)
        pkce = try c.decode(PKCE.self, forKey: .pkce)
        redirectURI = try c.decode(URL.self, forKey: .redirectURI)
        issuer = try c.decode(URL.self, forKey: .issuer)
        openID = try c.decodeIfPresent(Bool.self, forKey: .openID) ?? (nonce != nil)
    }

    /// The authorization endpoint and the redirect URI, never the verifier.
    public var description: String {
        "PendingAuthorization(\(url.scheme ?? "?")://\(url.host ?? "?")\(url.path) → \(redirectURI.absoluteString))"
    }
}
