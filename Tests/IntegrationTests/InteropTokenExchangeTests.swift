// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthHTTPClient
import AuthOAuth2
import Foundation
import HTTPTypes
import Testing

/// Token exchange (RFC 8693) as a call and as a strategy, against two providers over real HTTP:
/// Authlib, on which the exchange grant is written with Authlib's extension-grant mechanism
/// (Authlib ships none; `Interop/authlib_provider_extensions.py`), with actor tokens; and
/// idpyoidc's own `TokenExchangeHelper` (impersonation; idpyoidc 5.0.0 ignores actor tokens).
@Suite(.enabled(if: InteropPeer.shouldRun, InteropPeer.disabledNote), .timeLimit(.minutes(10)))
struct InteropTokenExchangeTests {
    struct Exchanged: Decodable {
        struct Actor: Decodable { let sub: String; let client_id: String }
        let sub: String
        let client_id: String
        let act: Actor?
    }

    struct Echo: Decodable { let headers: [String: String] }

    static func post(_ peer: InteropPeer, _ path: String, _ form: [(String, String)], transport: any Transport) async throws {
        _ = try await transport.send(AuthRequest(method: .post, url: peer.url(path), headerFields: [.contentType: "application/x-www-form-urlencoded"], body: FormURLEncoding.body(form)))
    }

    /// A gateway registered at Authlib's peer, allowed client credentials and token exchange,
    /// authenticating with `client_secret_jwt`.
    static func gateway(_ provider: OAuth2Provider, transport: any Transport) async throws -> OAuth2Client {
        let registration = try await ClientRegistrar(provider: provider, transport: transport).register(ClientMetadata(
            clientName: "gateway", grantTypes: ["client_credentials", TokenExchange.grantType], tokenEndpointAuthMethod: "client_secret_jwt", scope: "read write"))
        return try OAuth2Client(provider: provider, registration: registration, transport: transport)
    }

    /// Delegation end to end: alice's token (upstream) and the gateway's own (actor) are
    /// exchanged for a downstream token; it is exchanged again when it expires, and when alice's
    /// expires, whose renewal runs first through her own session; never more than once for
    /// twenty concurrent requests.
    @Test func aDownstreamClientIsExchangedFromAliceAndRenewedWhenEitherExpires() async throws {
        try await InteropPeer.run("authlib_provider.py", accessSeconds: 300) { peer in
            try await HTTPClientTransport.withTransport { transport in
                let provider = try InteropOAuth2ProviderTests.provider(peer, transport: transport)
                let app = OAuth2Client(provider: provider, clientID: "app", transport: transport)
                let gateway = try await Self.gateway(provider, transport: transport)
                let container = AuthContainer()
                container.useHTTPClient(transport)
                let alice = container.makeClient(for: AccountKey(namespace: "app", account: "alice"), strategy: BearerStrategy(allowedHosts: AllowedHosts(origin: peer.base), refresher: app))
                let tokens = try await InteropClientRegistrationTests.signIn(app, scopes: ["read"], transport: transport)
                try await alice.signIn(tokens)
                let actorStrategy = ClientCredentialsStrategy(client: gateway, scopes: ["read"], allowedHosts: AllowedHosts(origin: peer.base))
                let actor = container.makeClient(for: actorStrategy.account(), strategy: actorStrategy)
                let strategy = TokenExchangeStrategy(client: gateway, subject: alice, actor: actor, scopes: ["read"], allowedHosts: AllowedHosts(origin: peer.base))
                let orders = container.makeClient(for: strategy.account(), strategy: strategy)
                // Exchanged tokens live 10 s: the burst after the first one's expiry must end
                // before the second is due (three quarters of its life); with 4 s, a loaded
                // machine's burst could outlast that.
                try await Self.post(peer, "_exchange", [("seconds", "10")], transport: transport)

                let first = try await orders.json(Exchanged.self, .get, peer.url("api/exchanged"))
                #expect(first.sub == "alice" && first.client_id == gateway.clientID)
                #expect(first.act?.client_id == gateway.clientID && first.act?.sub == gateway.clientID)
                var counters = try await peer.counters(transport)
                #expect(counters["token_exchanges_with_actor"] == 1 && counters["client_secret_jwt_assertions"] == 2)  // the actor's grant, the exchange

                // The downstream token expires: one exchange for twenty requests, alice's token untouched.
                try await Task.sleep(for: .seconds(11))
                let subs = try await concurrently(20) { _ in try await orders.json(Exchanged.self, .get, peer.url("api/exchanged")).sub }
                #expect(subs.allSatisfy { $0 == "alice" })
                counters = try await peer.counters(transport)
                #expect(counters["token_exchanges"] == 2 && counters["refresh_token_grants"] == 0)

                // Alice's token expires (as kept on this device): her session refreshes it once,
                // then the exchange runs once with the new one.
                var stale = tokens
                stale.expiresAt = Date().addingTimeInterval(-1)
                try await alice.signIn(stale)
                try await Self.post(peer, "_exchange", [("seconds", "300")], transport: transport)
                try await Task.sleep(for: .seconds(11))  // the downstream token (10 s) expired too
                let again = try await concurrently(20) { _ in try await orders.json(Exchanged.self, .get, peer.url("api/exchanged")).sub }
                #expect(again.allSatisfy { $0 == "alice" })
                counters = try await peer.counters(transport)
                #expect(counters["refresh_token_grants"] == 1 && counters["token_exchanges"] == 3)

                // The downstream token counts as expiring no later than the one it came from.
                let vault = container[CredentialVaultKey.self]
                let upstream = try #require(try await vault.load(BearerTokenSet.self, for: alice.account)?.expiresAt)
                let downstream = try #require(try await vault.load(BearerTokenSet.self, for: orders.account)?.expiresAt)
                #expect(downstream <= upstream)
            }
        }
    }

    /// The hostile case: the exchanged token goes only where the downstream strategy allows,
    /// even to an origin alice's own token may go to.
    @Test func anExchangedTokenIsNeverSentToAnOriginTheDownstreamStrategyDoesNotAllow() async throws {
        try await Harness.run { other in
            try await InteropPeer.run("authlib_provider.py", accessSeconds: 300) { peer in
                try await HTTPClientTransport.withTransport { transport in
                    let provider = try InteropOAuth2ProviderTests.provider(peer, transport: transport)
                    let app = OAuth2Client(provider: provider, clientID: "app", transport: transport)
                    let gateway = try await Self.gateway(provider, transport: transport)
                    let container = AuthContainer()
                    container.useHTTPClient(transport)
                    let both = AllowedHosts(["127.0.0.1:*"])  // alice's token: any loopback port
                    let alice = container.makeClient(for: AccountKey(namespace: "app", account: "alice"), strategy: BearerStrategy(allowedHosts: both, refresher: app))
                    try await alice.signIn(try await InteropClientRegistrationTests.signIn(app, scopes: ["read"], transport: transport))
                    let strategy = TokenExchangeStrategy(client: gateway, subject: alice, scopes: ["read"], allowedHosts: AllowedHosts(origin: peer.base))
                    let orders = container.makeClient(for: strategy.account(), strategy: strategy)
                    #expect(try await orders.json(Exchanged.self, .get, peer.url("api/exchanged")).act == nil)  // impersonation

                    let echoed = try await orders.json(Echo.self, .get, other.url("echo"))
                    #expect(echoed.headers.keys.contains { $0.lowercased() == "authorization" } == false)
                    let upstream = try await alice.json(Echo.self, .get, other.url("echo"))
                    #expect(upstream.headers.keys.contains { $0.lowercased() == "authorization" })  // the scope is the strategy's, not the origin's
                    #expect(try await peer.counters(transport)["token_exchanges"] == 1)
                }
            }
        }
    }

    /// A subject token the provider does not know: a typed error carrying the provider's.
    @Test func aDeadSubjectTokenIsATypedError() async throws {
        try await InteropPeer.run("authlib_provider.py", accessSeconds: 300) { peer in
            try await HTTPClientTransport.withTransport { transport in
                let gateway = try await Self.gateway(try InteropOAuth2ProviderTests.provider(peer, transport: transport), transport: transport)
                await #expect { try await gateway.exchangeToken(TokenExchange(subjectToken: Secret("not-a-token"))) } throws: {
                    ($0 as? AuthError)?.code == .reauthenticationRequired && (($0 as? AuthError)?.underlying as? OAuth2Error)?.code == "invalid_grant"
                }
                #expect(try await peer.counters(transport)["token_exchange_refused"] == 1)
            }
        }
    }

    /// idpyoidc's own token exchange: the call, then a strategy whose downstream API is
    /// idpyoidc's userinfo endpoint; the gateway authenticates with `client_secret_jwt`.
    @Test func idpyoidcExchangesAlicesTokenForTheGateway() async throws {
        try await InteropPeer.run("idpyoidc_provider.py", accessSeconds: 300) { peer in
            try await HTTPClientTransport.withTransport { transport in
                let provider = try InteropIdpyoidc.provider(peer, transport: transport)
                let (app, appRegistration) = try await InteropIdpyoidc.client(ClientMetadata(
                    redirectURIs: [URL(string: "http://127.0.0.1/callback")!], grantTypes: ["authorization_code", "refresh_token"], responseTypes: ["code"],
                    tokenEndpointAuthMethod: "client_secret_basic", scope: "openid"), provider: provider, transport: transport)
                let (gateway, _) = try await InteropIdpyoidc.client(ClientMetadata(
                    redirectURIs: [URL(string: "http://127.0.0.1/callback")!], grantTypes: [TokenExchange.grantType], responseTypes: ["code"],
                    tokenEndpointAuthMethod: "client_secret_jwt", scope: "openid"), provider: provider, transport: transport)
                let tokens = try await InteropClientRegistrationTests.signIn(app, scopes: ["openid"], transport: transport)

                let issued = try await gateway.exchangeToken(TokenExchange(subjectToken: tokens.accessToken, audience: [appRegistration.clientID]))
                #expect(issued.issuedTokenType == TokenExchange.TokenType.accessToken && issued.tokens.tokenType.lowercased() == "bearer")
                let claims = try JWT.decode(issued.tokens.accessToken.reveal)
                #expect(claims.subject == "alice" && claims.all["client_id"] == .string(gateway.clientID))
                #expect(!"\(issued)".contains(issued.tokens.accessToken.reveal))

                let container = AuthContainer()
                container.useHTTPClient(transport)
                let alice = container.makeClient(for: AccountKey(namespace: "app", account: "alice"), strategy: BearerStrategy(allowedHosts: AllowedHosts(origin: peer.base), refresher: app))
                try await alice.signIn(tokens)
                let strategy = TokenExchangeStrategy(client: gateway, subject: alice, audience: [appRegistration.clientID], allowedHosts: AllowedHosts(origin: peer.base))
                let downstream = container.makeClient(for: strategy.account(), strategy: strategy)
                let info = try await app.userInfo(for: downstream)
                #expect(info.subject == (try JWT.decode(try #require(tokens.idToken?.reveal)).subject))  // the user the ID token names
            }
        }
    }
}
