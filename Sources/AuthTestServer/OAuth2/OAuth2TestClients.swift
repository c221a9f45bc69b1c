// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// The clients the test server's OAuth 2.0 provider (`OAuth2ProviderRoutes`) knows. Public
/// test values, never for production.
///
/// ```swift
/// let app = OAuth2Client(provider: OAuth2Provider(issuer: server.baseURL, transport: transport), clientID: OAuth2TestClients.publicClientID, transport: transport)
/// ```
public enum OAuth2TestClients {
    /// A public client (a command-line tool): authorization code with PKCE to any
    /// `http://127.0.0.1:<port>/…` redirect (RFC 8252), the device grant, refresh.
    public static let publicClientID = "authkit-cli"
    /// A confidential client (a service): client credentials with `client_secret_basic` or
    /// `client_secret_post`, scopes `read` and `write`.
    public static let serviceClientID = "authkit-service"
    /// The secret of ``serviceClientID``.
    public static let serviceSecret = "authkit test service secret (public test value)"
    /// The scopes a client may ask for.
    static let scopes: [String: Set<String>] = [publicClientID: ["openid", "profile", "read"], serviceClientID: ["read", "write"]]
}
