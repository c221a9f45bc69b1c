// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
public import Foundation

/// A downstream service's tokens, exchanged (RFC 8693) from an upstream account's: a service
/// acting for a user toward another API, with or without an actor token (delegation or
/// impersonation).
///
/// Like ``ClientCredentialsStrategy``, the grant itself renews: every renewal runs the exchange
/// again through the downstream account's session, so concurrent requests across an expiry
/// exchange once. The subject (and actor) tokens are read from their own accounts' sessions
/// (``/AuthCore/AccountSession/credentialForRequest()``), so an expired upstream token is
/// renewed by its own coordinator first. A downstream token counts as expiring when the first of
/// it and the tokens it was exchanged from does: it is exchanged again when either expires.
///
/// The exchanged token is attached only to requests whose origin ``allowedHosts`` allows: the
/// downstream API's, whatever the upstream strategy allows. The upstream tokens go only to the
/// provider's token endpoint.
///
/// ```swift
/// let gateway = OAuth2Client(provider: oauthProvider, clientID: "gateway", authentication: .clientSecretBasic(secret: Secret(clientSecret)), transport: transport)
/// let strategy = TokenExchangeStrategy(client: gateway, subject: aliceClient, audience: ["orders"], allowedHosts: AllowedHosts(["orders.example.com"]))
/// let orders = container.makeClient(for: strategy.account(), strategy: strategy)
/// ```
public struct TokenExchangeStrategy: AuthStrategy {
    /// The client that exchanges (authenticating at the token endpoint).
    public let client: OAuth2Client
    /// The upstream account whose token is the subject.
    public let subjectAccount: AccountKey
    /// The account whose token is the actor, for delegation.
    public let actorAccount: AccountKey?
    /// `audience` values asked for.
    public let audience: [String]
    /// RFC 8707 `resource` indicators asked for.
    public let resources: [URL]
    /// Scopes asked for.
    public let scopes: [String]
    /// Where the exchanged token may be sent.
    public let allowedHosts: AllowedHosts
    private let subjectToken: @Sendable () async throws -> BearerTokenSet
    private let actorToken: (@Sendable () async throws -> BearerTokenSet)?

    /// Creates the strategy from closures that give the current subject and actor tokens.
    /// - Parameters:
    ///   - client: The client that exchanges.
    ///   - subjectAccount: The account the subject token belongs to (it names the downstream account).
    ///   - subjectToken: A valid subject token (an access token).
    ///   - actorAccount: The account of the actor, for delegation.
    ///   - actorToken: A valid actor token (an access token), for delegation.
    ///   - audience: `audience` values.
    ///   - resources: `resource` indicators.
    ///   - scopes: The scopes asked for.
    ///   - allowedHosts: Where the exchanged token may be sent.
    public init(client: OAuth2Client, subjectAccount: AccountKey, subjectToken: @escaping @Sendable () async throws -> BearerTokenSet, actorAccount: AccountKey? = nil, actorToken: (@Sendable () async throws -> BearerTokenSet)? = nil, audience: [String] = [], resources: [URL] = [], scopes: [String] = [], allowedHosts: AllowedHosts) {
        self.client = client
        self.subjectAccount = subjectAccount
        self.subjectToken = subjectToken
        self.actorAccount = actorAccount
        self.actorToken = actorToken
        self.audience = audience
        self.resources = resources
        self.scopes = scopes
        self.allowedHosts = allowedHosts
    }

    /// Impersonation: the exchanged token stands for the subject account's user.
    /// - Parameters:
    ///   - client: The client that exchanges.
    ///   - subject: The upstream account; its token is renewed by its own session when due.
    ///   - audience: `audience` values.
    ///   - resources: `resource` indicators.
    ///   - scopes: The scopes asked for.
    ///   - allowedHosts: Where the exchanged token may be sent.
    public init<S: AuthStrategy>(client: OAuth2Client, subject: AccountClient<S>, audience: [String] = [], resources: [URL] = [], scopes: [String] = [], allowedHosts: AllowedHosts) where S.Value == BearerTokenSet {
        let session = subject.session
        self.init(client: client, subjectAccount: subject.account, subjectToken: { try await session.credentialForRequest() }, audience: audience, resources: resources, scopes: scopes, allowedHosts: allowedHosts)
    }

    /// Delegation: the exchanged token says that the actor account acts for the subject's user.
    /// - Parameters:
    ///   - client: The client that exchanges.
    ///   - subject: The upstream account; its token is renewed by its own session when due.
    ///   - actor: The acting account (a service's own client credentials, say).
    ///   - audience: `audience` values.
    ///   - resources: `resource` indicators.
    ///   - scopes: The scopes asked for.
    ///   - allowedHosts: Where the exchanged token may be sent.
    public init<S: AuthStrategy, A: AuthStrategy>(client: OAuth2Client, subject: AccountClient<S>, actor: AccountClient<A>, audience: [String] = [], resources: [URL] = [], scopes: [String] = [], allowedHosts: AllowedHosts) where S.Value == BearerTokenSet, A.Value == BearerTokenSet {
        let subjectSession = subject.session, actorSession = actor.session
        self.init(client: client, subjectAccount: subject.account, subjectToken: { try await subjectSession.credentialForRequest() },
                  actorAccount: actor.account, actorToken: { try await actorSession.credentialForRequest() },
                  audience: audience, resources: resources, scopes: scopes, allowedHosts: allowedHosts)
    }

    /// The account the exchanged tokens are kept under: the client at the issuer, the subject
    /// (and actor) account, the audience, resources and scopes, so that two users or two
    /// configurations never share a token.
    public func account(namespace: String = "oauth2-token-exchange") -> AccountKey {
        var name = "\(client.clientID)@\(client.provider.issuer.absoluteString) for \(subjectAccount.namespace)/\(subjectAccount.account)"
        if let actorAccount { name += " by \(actorAccount.namespace)/\(actorAccount.account)" }
        if !audience.isEmpty { name += " audience=\(audience.sorted().joined(separator: ","))" }
        if !resources.isEmpty { name += " resource=\(resources.map(\.absoluteString).sorted().joined(separator: ","))" }
        if !scopes.isEmpty { name += " scope=\(scopes.sorted().joined(separator: ","))" }
        return AccountKey(namespace: namespace, account: name)
    }

    /// Runs the exchange (whatever the current token) with the subject's and actor's current
    /// tokens; the result expires no later than they do.
    ///
    /// An upstream account that needs a new sign-in fails this renewal with `.renewalFailed`
    /// (its error underneath), not `.reauthenticationRequired`: the downstream account has
    /// nothing to sign in again, and works again once the upstream one does.
    public func renew(_ credential: BearerTokenSet?, context: RenewalContext) async throws -> BearerTokenSet {
        let subject = try await Self.upstream(subjectToken, "subject", subjectAccount)
        var actor: BearerTokenSet?
        if let actorToken, let actorAccount { actor = try await Self.upstream(actorToken, "actor", actorAccount) }
        let issued = try await client.exchangeToken(TokenExchange(
            subjectToken: subject.accessToken, actorToken: actor?.accessToken, requestedTokenType: TokenExchange.TokenType.accessToken,
            audience: audience, resources: resources, scopes: scopes))
        guard issued.issuedTokenType == TokenExchange.TokenType.accessToken else {
            throw AuthError(code: .misconfigured, message: "the token exchange issued a \(issued.issuedTokenType.suffix(60)), not the access token asked for")
        }
        var tokens = issued.tokens
        tokens.refreshToken = nil  // the exchange itself renews
        tokens.expiresAt = [tokens.expiresAt, subject.expiresAt, actor?.expiresAt].compactMap { $0 }.min()
        return tokens
    }

    private static func upstream(_ token: @Sendable () async throws -> BearerTokenSet, _ role: String, _ account: AccountKey) async throws -> BearerTokenSet {
        do {
            return try await token()
        } catch let error as AuthError where error.code == .reauthenticationRequired || error.code == .notSignedIn {
            throw AuthError(code: .renewalFailed, message: "the \(role) account \(account) needs a sign-in before its token can be exchanged", account: account, underlying: error)
        }
    }
}
