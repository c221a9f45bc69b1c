// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthHTTPClient
import AuthOAuth2
import AuthTestServer
import AuthTesting
import Foundation
import HTTPTypes
import Synchronization
import Testing

/// Every AuthOAuth2 flow end to end over real HTTP against AuthTestServer's provider.
@Suite struct OAuth2TestServerFlowTests {
    static func app(_ h: Harness, clock: any AuthClock = SystemClock()) -> OAuth2Client {
        OAuth2Client(provider: OAuth2Provider(issuer: h.base, transport: h.transport), clientID: OAuth2TestClients.publicClientID, transport: h.transport, clock: clock)
    }

    /// The service client (client credentials, its tokens DPoP-bound with a key from the
    /// returned keyring) of a container with `useDPoP`.
    static func dpopService(_ h: Harness) -> (AccountClient<ClientCredentialsStrategy>, DPoPKeyring, AuthContainer) {
        let client = OAuth2Client(provider: OAuth2Provider(issuer: h.base, transport: h.transport), clientID: OAuth2TestClients.serviceClientID, authentication: .clientSecretBasic(secret: Secret(OAuth2TestClients.serviceSecret)), transport: h.transport)
        let keyring = DPoPKeyring()
        let container = h.container()
        container.useDPoP(keyring)
        let strategy = ClientCredentialsStrategy(client: client, scopes: ["read"], allowedHosts: h.hosts, dpop: keyring)
        return (container.makeClient(for: strategy.account(), strategy: strategy), keyring, container)
    }

    struct ProviderMe: Decodable { let sub: String; let client_id: String; let scope: String }

    @Test func theCodeFlowThroughTheLoopbackListenerWithAnIDTokenThatSurvivesAKeyRotation() async throws {
        try await Harness.run { h in
            let clock = ManualClock(start: Date())
            let app = Self.app(h, clock: clock)
            let browser = LoopbackSignInTests.Browser(transport: h.transport)
            let tokens = try await app.signInWithBrowser(scopes: ["openid", "read"]) { browser.open($0) }
            let idToken = try #require(tokens.idToken?.reveal)
            #expect(try await app.validateIDToken(idToken, nonce: nil).subject == "alice")
            let page = try await LoopbackSignInTests.waitFor { browser.page }
            #expect(page.status.code == 200)
            #expect(h.server.counters.count("oauth2.grant.authorization_code") == 1)

            // The provider rotates its key: a minute on, the next ID token is found by one more
            // JWKS fetch (the code flow validates it before handing the tokens over).
            h.server.oauth2.rotateSigningKey()
            clock.advance(by: 61)
            let again = try await app.signInWithBrowser(scopes: ["openid", "read"]) { browser.open($0) }
            #expect(try await app.validateIDToken(try #require(again.idToken?.reveal), nonce: nil).subject == "alice")
            #expect(h.server.counters.requests(path: "/oauth2/jwks") == 2)
        }
    }

    @Test func theDeviceFlowGoesFromPendingThroughSlowDownToApproval() async throws {
        var configuration = AuthTestServer.Configuration()
        configuration.deviceInterval = 5  // two polls of the test never come 5 s apart, however loaded the machine
        try await Harness.run(configuration: configuration) { h in
            let clock = ManualClock()  // its sleeps return at once: polls come faster than the interval
            let app = Self.app(h, clock: clock)
            let device = try await app.startDeviceAuthorization(scopes: ["read"])
            let server = h.server
            let tokens = try await app.pollDeviceAuthorization(device) { progress in
                if case .slowedDown = progress { server.oauth2.decideDevice(userCode: device.userCode, approve: true) }
            }
            #expect(clock.sleeps == [.seconds(5), .seconds(5), .seconds(10)])
            #expect(h.server.counters.count("oauth2.device.slowDown") == 1)
            #expect(h.server.counters.count("oauth2.grant.device_code") == 1)
            let me = try await h.transport.send(AuthRequest(method: .get, url: h.url("oauth2/me"), headerFields: [.authorization: "Bearer \(tokens.accessToken.reveal)"]))
            #expect(try JSONDecoder().decode(ProviderMe.self, from: me.body).sub == "alice")
        }
    }

    /// A provider that answers `authorization_pending` and `slow_down` with 200 (as GitHub) and
    /// names the page `verification_url` (as Google): the device flow still goes from pending
    /// through slow-down to approval. Before, the first poll failed with `.decoding` (an error
    /// read as tokens), and Google's answer could not be read at all.
    @Test(arguments: [OAuth2ProviderQuirks(errorsWithOK: true), OAuth2ProviderQuirks(verificationURL: true)])
    func theDeviceFlowOfProvidersThatBendTheRFC(quirks: OAuth2ProviderQuirks) async throws {
        var configuration = AuthTestServer.Configuration()
        configuration.deviceInterval = 5
        configuration.oauth2Quirks = quirks
        try await Harness.run(configuration: configuration) { h in
            let clock = ManualClock()
            let app = Self.app(h, clock: clock)
            let device = try await app.startDeviceAuthorization(scopes: ["read"])
            #expect(device.verificationURI == h.url("oauth2/device"))
            let server = h.server
            let tokens = try await app.pollDeviceAuthorization(device) { progress in
                if case .slowedDown = progress { server.oauth2.decideDevice(userCode: device.userCode, approve: true) }
            }
            #expect(clock.sleeps == [.seconds(5), .seconds(5), .seconds(10)])
            #expect(h.server.counters.count("oauth2.grant.device_code") == 1)
            #expect(!tokens.accessToken.reveal.isEmpty)
        }
    }

    /// A token endpoint that answers a poll `429` or `503` with `Retry-After` is waited out, and
    /// a `slow_down` in such an answer slows the polling: the user may be approving meanwhile.
    /// Before the fix the `Retry-After` answer lost its OAuth 2.0 error, and the first one ended
    /// the device flow with `renewalFailed`.
    @Test func theDeviceFlowWaitsOutABusyTokenEndpoint() async throws {
        var configuration = AuthTestServer.Configuration()
        configuration.deviceInterval = 5
        try await Harness.run(configuration: configuration) { h in
            let clock = ManualClock()
            let app = Self.app(h, clock: clock)
            let device = try await app.startDeviceAuthorization(scopes: ["read"])
            h.server.faults.inject(.response(status: 429, headers: ["Retry-After": "20", "Content-Type": "application/json"], body: #"{"error":"slow_down"}"#), path: "/oauth2/token", times: 1)
            let server = h.server
            let seen = Mutex<[String]>([])
            let tokens = try await app.pollDeviceAuthorization(device) { progress in
                seen.withLock { $0.append("\(progress)") }
                if case .slowedDown = progress {
                    server.faults.inject(.status(503, retryAfter: "30"), path: "/oauth2/token", times: 1)
                } else {
                    server.oauth2.decideDevice(userCode: device.userCode, approve: true)
                }
            }
            // The 429's slow_down: every 10 s from now on, the next poll after its 20 s; the 503's
            // 30 s; then the approval.
            #expect(seen.withLock { $0 } == ["\(DeviceAuthorizationProgress.slowedDown(interval: .seconds(10)))", "\(DeviceAuthorizationProgress.serverBusy(nextPollIn: .seconds(30)))"])
            #expect(clock.sleeps == [.seconds(5), .seconds(20), .seconds(30)])
            #expect(h.server.counters.count("oauth2.grant.device_code") == 1)
            #expect(!tokens.accessToken.reveal.isEmpty)
        }
    }

    @Test func clientCredentialsWithTwoScopeSetsKeepTwoTokensEachRenewedOnce() async throws {
        var configuration = AuthTestServer.Configuration()
        configuration.lifetimes.access = 300
        try await Harness.run(configuration: configuration) { h in
            let client = OAuth2Client(provider: OAuth2Provider(issuer: h.base, transport: h.transport), clientID: OAuth2TestClients.serviceClientID, authentication: .clientSecretPost(secret: Secret(OAuth2TestClients.serviceSecret)), transport: h.transport)
            let container = h.container()
            let reader = ClientCredentialsStrategy(client: client, scopes: ["read"], allowedHosts: h.hosts)
            let writer = ClientCredentialsStrategy(client: client, scopes: ["read", "write"], allowedHosts: h.hosts)
            let readClient = container.makeClient(for: reader.account(), strategy: reader)
            let writeClient = container.makeClient(for: writer.account(), strategy: writer)
            let scopes = try await concurrently(100) { index in
                try await (index.isMultiple(of: 2) ? readClient.json(ProviderMe.self, .get, h.url("oauth2/me")) : writeClient.json(ProviderMe.self, .get, h.url("oauth2/me"))).scope
            }
            #expect(scopes.filter { $0 == "read" }.count == 50 && scopes.filter { $0 == "read write" }.count == 50)
            #expect(h.server.counters.count("oauth2.grant.client_credentials") == 2)
            h.server.clock.advance(by: 301)
            _ = try await concurrently(100) { _ in try await readClient.send(.get, h.url("oauth2/me")).status.code }
            #expect(h.server.counters.count("oauth2.grant.client_credentials") == 3)
        }
    }

    @Test func signOutRevokesAtTheProviderAndTheTokenStopsWorking() async throws {
        try await Harness.run { h in
            let app = Self.app(h)
            let browser = LoopbackSignInTests.Browser(transport: h.transport)
            let tokens = try await app.signInWithBrowser(scopes: ["read"]) { browser.open($0) }
            let container = h.container()
            let alice = container.makeClient(for: AccountKey(namespace: "provider", account: "alice"), strategy: BearerStrategy(allowedHosts: h.hosts, refresher: app))
            try await alice.signIn(tokens)
            #expect(try await alice.send(.get, h.url("oauth2/me")).status == .ok)
            try await app.signOut(alice)
            #expect(h.server.counters.count("oauth2.revoked") == 2)
            let old = try await h.transport.send(AuthRequest(method: .get, url: h.url("oauth2/me"), headerFields: [.authorization: "Bearer \(tokens.accessToken.reveal)"]))
            #expect(old.status.code == 401)
            // The revoked refresh token is refused too.
            await #expect { try await app.refresh(tokens) } throws: { ($0 as? AuthError)?.code == .reauthenticationRequired }
        }
    }

    /// The code flow validates the ID token itself: an answer to an authorization whose nonce
    /// is not the token's is refused.
    @Test func theCodeFlowRefusesAnIDTokenForAnotherNonce() async throws {
        try await Harness.run { h in
            let app = Self.app(h)
            let pending = try await app.startAuthorization(redirectURI: URL(string: "http://127.0.0.1:5555/callback")!, scopes: ["openid"])
            let answer = try await h.transport.send(AuthRequest(method: .get, url: pending.url))
            let redirect = try #require(answer.head.headerFields[.location].flatMap(URL.init(string:)))
            let other = PendingAuthorization(url: pending.url, state: pending.state, nonce: "another-nonce", pkce: pending.pkce, redirectURI: pending.redirectURI, issuer: pending.issuer)
            await #expect { try await app.completeAuthorization(other, redirect: redirect) } throws: { ($0 as? AuthError)?.message.contains("nonce") == true }
        }
    }

    @Test func aStrayRequestDoesNotEndTheLoopbackWait() async throws {
        try await Harness.run { h in
            let listener = try await LoopbackRedirectListener.bind(path: "callback")
            let pending = try await Self.app(h).startAuthorization(redirectURI: listener.redirectURI, scopes: ["read"])
            let wait = Task { try await listener.waitForRedirect(of: pending, timeout: .seconds(60)) }
            let stray = try await h.transport.send(AuthRequest(method: .get, url: listener.redirectURI.appending(queryItems: [URLQueryItem(name: "code", value: "x")])))
            #expect(stray.status.code == 400)
            let real = listener.redirectURI.appending(queryItems: [URLQueryItem(name: "code", value: "c"), URLQueryItem(name: "state", value: pending.state)])
            #expect(try await h.transport.send(AuthRequest(method: .get, url: real)).status.code == 200)
            #expect(try await wait.value == real)
        }
    }

    @Test func aWrongVerifierAndADeniedConsentAreRefused() async throws {
        try await Harness.run { h in
            let app = Self.app(h)
            let pending = try await app.startAuthorization(redirectURI: URL(string: "http://127.0.0.1:5555/callback")!, scopes: ["read"])
            let answer = try await h.transport.send(AuthRequest(method: .get, url: pending.url))
            let redirect = try #require(answer.head.headerFields[.location].flatMap(URL.init(string:)))
            let tampered = PendingAuthorization(url: pending.url, state: pending.state, nonce: nil, pkce: PKCE(), redirectURI: pending.redirectURI, issuer: pending.issuer)
            await #expect { try await app.completeAuthorization(tampered, redirect: redirect) } throws: { ($0 as? AuthError)?.code == .authorizationFailed }

            let denied = try await app.startAuthorization(redirectURI: URL(string: "http://127.0.0.1:5555/callback")!, scopes: ["read"], parameters: [("login_hint", "deny")])
            let refusal = try await h.transport.send(AuthRequest(method: .get, url: denied.url))
            let deniedRedirect = try #require(refusal.head.headerFields[.location].flatMap(URL.init(string:)))
            await #expect { try await app.completeAuthorization(denied, redirect: deniedRedirect) } throws: { (($0 as? AuthError)?.underlying as? OAuth2Error)?.code == "access_denied" }
        }
    }

    @Test func dpopBoundServiceTokensProofsNoncesAndAReplayedProof() async throws {
        try await Harness.run { h in
            let (service, keyring, container) = Self.dpopService(h)
            let answers = try await concurrently(20) { _ in try await service.json(ProviderMe.self, .get, h.url("oauth2/me")).sub }
            #expect(answers.allSatisfy { $0 == OAuth2TestClients.serviceClientID })
            // One challenge at the token endpoint, then the nonce is known for the origin.
            #expect(h.server.counters.count("oauth2.dpop.nonceChallenges") == 1)
            #expect(h.server.counters.count("oauth2.grant.client_credentials") == 1)

            let tokens = try #require(try await container[CredentialVaultKey.self].load(BearerTokenSet.self, for: service.account))
            #expect(tokens.tokenType == "DPoP")
            let dpop = try await keyring.dpop(for: service.account, vault: container[CredentialVaultKey.self])
            let me = h.url("oauth2/me")
            let proof = try await dpop.proof(method: "GET", url: me, accessToken: tokens.accessToken.reveal)
            let request = try AuthRequest(method: .get, url: me, headerFields: [.authorization: "DPoP \(tokens.accessToken.reveal)", DPoP.field: proof])
            #expect(try await h.transport.send(request).status.code == 200)
            #expect(try await h.transport.send(request).status.code == 401)
            #expect(h.server.oauth2.replayedProofs == 1)
            // Sent as a bearer token, it is refused.
            #expect(try await h.transport.send(AuthRequest(method: .get, url: me, headerFields: [.authorization: "Bearer \(tokens.accessToken.reveal)"])).status.code == 401)

            // A new nonce: challenged once more, answered.
            h.server.oauth2.rotateDPoPNonce()
            #expect(try await service.json(ProviderMe.self, .get, me).sub == OAuth2TestClients.serviceClientID)
            #expect(h.server.counters.count("oauth2.dpop.nonceChallenges") == 2)
        }
    }

    /// A sign-out removes the account's DPoP key from the vault and the keyring: the next
    /// sign-in is bound to a new key, stored again. Before, the key stayed in both (the
    /// keyring's copy even after `OAuth2Client.signOut` removed the stored one).
    @Test func aSignOutRemovesTheAccountsDPoPKey() async throws {
        try await Harness.run { h in
            let (service, keyring, container) = Self.dpopService(h)
            let vault = container[CredentialVaultKey.self]
            let keyItem = service.account.item(DPoPKey.item)
            #expect(try await service.json(ProviderMe.self, .get, h.url("oauth2/me")).sub == OAuth2TestClients.serviceClientID)
            let first = try await keyring.dpop(for: service.account, vault: vault).thumbprint
            #expect(try await vault.store.get(keyItem) != nil)

            try await service.signOut()
            #expect(try await vault.store.get(keyItem) == nil)
            #expect(try await service.json(ProviderMe.self, .get, h.url("oauth2/me")).sub == OAuth2TestClients.serviceClientID)
            #expect(try await keyring.dpop(for: service.account, vault: vault).thumbprint != first)
            #expect(try await vault.store.get(keyItem) != nil)
        }
    }

    /// An ID token in a refresh's answer is validated and must name the sign-in's user (OpenID
    /// Connect Core §12.2). Before, any new ID token replaced the sign-in's unchecked: a provider
    /// naming another user set the subject `userInfo` expects and the logout's `id_token_hint`.
    /// One that cannot be validated is left out, and the tokens issued with it are kept (a
    /// rotated refresh token is spent by then).
    @Test func aRefreshedIDTokenMustNameTheSignInsUser() async throws {
        try await Harness.run { h in
            let app = Self.app(h)
            let browser = LoopbackSignInTests.Browser(transport: h.transport)
            let tokens = try await app.signInWithBrowser(scopes: ["openid", "read"]) { browser.open($0) }
            let container = h.container()
            let account = AccountKey(namespace: "oauth2-oidc", account: "alice")
            let alice = container.makeClient(for: account, strategy: BearerStrategy(allowedHosts: h.hosts, refresher: app))
            try await alice.signIn(tokens)
            let me = h.url("oauth2/me")
            let vault = container[CredentialVaultKey.self]

            // The same user: the new ID token is taken.
            h.server.oauth2.answerRefreshesWithIDToken()
            try await app.revoke(tokens.accessToken, hint: "access_token")
            #expect(try await alice.json(ProviderMe.self, .get, me).sub == "alice")
            let renewed = try #require(try await vault.load(BearerTokenSet.self, for: account))
            #expect(renewed.idToken != tokens.idToken)
            #expect(try await app.validateIDToken(try #require(renewed.idToken?.reveal), nonce: nil).subject == "alice")

            // One that cannot be validated (expired): the new tokens are taken, the ID token not.
            h.server.oauth2.answerRefreshesWithIDToken(expired: true)
            try await app.revoke(renewed.accessToken, hint: "access_token")
            #expect(try await alice.json(ProviderMe.self, .get, me).sub == "alice")
            let third = try #require(try await vault.load(BearerTokenSet.self, for: account))
            #expect(third.accessToken != renewed.accessToken)
            #expect(third.idToken == renewed.idToken)

            // Another user: the session ends, and the stored tokens stay the sign-in's user's.
            h.server.oauth2.answerRefreshesWithIDToken(subject: "mallory")
            try await app.revoke(third.accessToken, hint: "access_token")
            let refusal = await #expect(throws: AuthError.self) { try await alice.send(.get, me) }
            #expect(refusal?.code == .reauthenticationRequired)
            let next = await #expect(throws: AuthError.self) { try await alice.send(.get, me) }
            #expect(next?.code == .reauthenticationRequired)
            let kept = try #require(try await vault.load(BearerTokenSet.self, for: account))
            #expect(try await app.validateIDToken(try #require(kept.idToken?.reveal), nonce: nil).subject == "alice")
        }
    }

    /// A user's DPoP-bound token that the resource server refuses as RFC 9449 §7.1 asks
    /// (`401`, `WWW-Authenticate: DPoP error="invalid_token"`) is renewed with the refresh token,
    /// as a refused bearer token is; the refresh's answer, which has no ID token, keeps the
    /// sign-in's (OpenID Connect Core §12.2).
    @Test func aRefusedDPoPBoundUserTokenIsRenewedAndKeepsItsIDToken() async throws {
        try await Harness.run { h in
            let keyring = DPoPKeyring()
            let container = h.container()
            container.useDPoP(keyring)
            let account = AccountKey(namespace: "oauth2-dpop", account: "alice")
            let dpop = try await keyring.dpop(for: account, vault: container[CredentialVaultKey.self])
            let app = OAuth2Client(provider: OAuth2Provider(issuer: h.base, transport: h.transport), clientID: OAuth2TestClients.publicClientID, dpop: dpop, transport: h.transport)
            let browser = LoopbackSignInTests.Browser(transport: h.transport)
            let tokens = try await app.signInWithBrowser(scopes: ["openid", "read"]) { browser.open($0) }
            #expect(tokens.tokenType == "DPoP")
            let alice = container.makeClient(for: account, strategy: BearerStrategy(allowedHosts: h.hosts, refresher: app))
            try await alice.signIn(tokens)
            let me = h.url("oauth2/me")
            #expect(try await alice.json(ProviderMe.self, .get, me).sub == "alice")

            try await app.revoke(tokens.accessToken, hint: "access_token")
            #expect(try await alice.json(ProviderMe.self, .get, me).sub == "alice")
            #expect(h.server.counters.count("oauth2.rejected") == 1)
            #expect(h.server.counters.count("oauth2.grant.refresh_token") == 1)
            let renewed = try #require(try await container[CredentialVaultKey.self].load(BearerTokenSet.self, for: account))
            #expect(renewed.accessToken != tokens.accessToken && renewed.tokenType == "DPoP")
            #expect(renewed.idToken != nil && renewed.idToken == tokens.idToken)
        }
    }

    @Test func aResourceServerIntrospectsAToken() async throws {
        try await Harness.run { h in
            let provider = OAuth2Provider(issuer: h.base, transport: h.transport)
            let app = OAuth2Client(provider: provider, clientID: OAuth2TestClients.publicClientID, transport: h.transport)
            let browser = LoopbackSignInTests.Browser(transport: h.transport)
            let tokens = try await app.signInWithBrowser(scopes: ["read"]) { browser.open($0) }
            let resourceServer = OAuth2Client(provider: provider, clientID: OAuth2TestClients.serviceClientID, authentication: .clientSecretPost(secret: Secret(OAuth2TestClients.serviceSecret)), transport: h.transport)
            let info = try await resourceServer.introspect(tokens.accessToken)
            #expect(info.active && info.subject == "alice" && info.clientID == OAuth2TestClients.publicClientID && info.scope == "read")
            try await app.revoke(tokens.accessToken, hint: "access_token")
            #expect(try await resourceServer.introspect(tokens.accessToken).active == false)
        }
    }
}
