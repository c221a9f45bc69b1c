// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
public import Foundation

/// A service's own tokens, obtained with the client credentials grant (RFC 6749 §4.4) and
/// obtained again when they expire: there is no refresh token, the grant itself renews.
///
/// Every renewal goes through the account's session, so concurrent requests across
/// an expiry run the grant once (across processes too, with a store that locks). The account
/// key names the client, scopes, resources and audience (``account(namespace:)``): each
/// combination is a credential of its own. No sign-in is needed: the first request obtains the
/// first token.
///
/// ```swift
/// let client = OAuth2Client(provider: oauthProvider, clientID: "billing", authentication: .clientSecretBasic(secret: Secret(clientSecret)), transport: transport)
/// let strategy = ClientCredentialsStrategy(client: client, scopes: ["invoices.read"], resources: [URL(string: "https://api.example.com")!], allowedHosts: AllowedHosts(["api.example.com"]))
/// let billing = container.makeClient(for: strategy.account(), strategy: strategy)
/// ```
public struct ClientCredentialsStrategy: AuthStrategy {
    /// The client that runs the grant.
    public let client: OAuth2Client
    /// The scopes asked for.
    public let scopes: [String]
    /// RFC 8707 `resource` indicators: the APIs the token is for.
    public let resources: [URL]
    /// An `audience` parameter, for providers that take one instead of `resource`.
    public let audience: String?
    /// Where the token may be sent.
    public let allowedHosts: AllowedHosts
    /// The accounts' DPoP keys, when the tokens are to be DPoP-bound (RFC 9449): each grant
    /// then carries a proof, and `container.useDPoP(_:allowedHosts:)` with the same keyring puts
    /// proofs on the requests.
    public let dpop: DPoPKeyring?

    /// Creates the strategy.
    public init(client: OAuth2Client, scopes: [String] = [], resources: [URL] = [], audience: String? = nil, allowedHosts: AllowedHosts, dpop: DPoPKeyring? = nil) {
        self.client = client
        self.scopes = scopes
        self.resources = resources
        self.audience = audience
        self.allowedHosts = allowedHosts
        self.dpop = dpop
    }

    /// The account these tokens are kept under: the client id at the issuer, and the scopes,
    /// resources and audience, so that two configurations never share a token.
    public func account(namespace: String = "oauth2-client-credentials") -> AccountKey {
        var name = "\(client.clientID)@\(client.provider.issuer.absoluteString)"
        if !scopes.isEmpty { name += " scope=\(scopes.sorted().joined(separator: ","))" }
        if !resources.isEmpty { name += " resource=\(resources.map(\.absoluteString).sorted().joined(separator: ","))" }
        if let audience { name += " audience=\(audience)" }
        return AccountKey(namespace: namespace, account: name)
    }

    /// Runs the grant (whatever the current token).
    public func renew(_ credential: BearerTokenSet?, context: RenewalContext) async throws -> BearerTokenSet {
        var form = [("grant_type", "client_credentials")]
        if !scopes.isEmpty { form.append(("scope", scopes.joined(separator: " "))) }
        form += resources.map { ("resource", $0.absoluteString) }
        if let audience { form.append(("audience", audience)) }
        let binding = try await dpop?.dpop(for: context.account, vault: context.vault)
        return try await client.tokenEndpoint(binding: binding).requestTokens(form)
    }
}
