// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthHTTPClient
import AuthOAuth2
import AuthTesting
import Foundation
import HTTPTypes
import Testing

/// Refresh tokens that expire, against Authlib (`Interop/authlib_provider.py --refresh-seconds`,
/// whose token responses say `refresh_token_expires_in` and whose refresh grant refuses an
/// expired refresh token): the expiry is kept with the tokens, reported ahead of time, and once
/// it has passed no renewal is sent, a typed error is.
@Suite(.enabled(if: InteropPeer.shouldRun, InteropPeer.disabledNote), .timeLimit(.minutes(10)))
struct InteropRefreshExpiryTests {
    static func signIn(_ peer: InteropPeer, _ app: OAuth2Client, transport: any Transport) async throws -> BearerTokenSet {
        let pending = try await app.startAuthorization(redirectURI: InteropOAuth2ProviderTests.redirectURI, scopes: ["read"])
        return try await app.completeAuthorization(pending, redirect: try await InteropOAuth2ProviderTests.consent(pending, transport: transport))
    }

    @Test func theRefreshTokensExpiryIsKeptAndReportedAhead() async throws {
        try await InteropPeer.run("authlib_provider.py", accessSeconds: 300, arguments: ["--refresh-seconds", "3600"]) { peer in
            try await HTTPClientTransport.withTransport { transport in
                let app = OAuth2Client(provider: try InteropOAuth2ProviderTests.provider(peer, transport: transport), clientID: "app", transport: transport)
                let before = Date()
                let tokens = try await Self.signIn(peer, app, transport: transport)
                let end = try #require(tokens.refreshExpiresAt)
                #expect(end.timeIntervalSince(before) > 3600 - 60 && end.timeIntervalSince(before) < 3600 + 60)

                // Within the notice: reported at sign-in and at each renewal, with the expiry.
                let container = AuthContainer()
                container.useHTTPClient(transport)
                container.override(RenewalPolicyKey.self, with: RenewalPolicy(refreshExpiryNotice: .seconds(7200)))
                let recorder = EventRecorder(container[AuthEventsKey.self])
                let alice = container.makeClient(for: AccountKey(namespace: "provider", account: "alice"), strategy: BearerStrategy(allowedHosts: AllowedHosts(origin: peer.base), refresher: app))
                try await alice.signIn(tokens)
                let atSignIn = await recorder.waitFor { $0.contains(.refreshTokenExpiring(alice.account, expiresAt: end)) }
                #expect(atSignIn.contains(.refreshTokenExpiring(alice.account, expiresAt: end)))
                _ = try await transport.send(AuthRequest(method: .post, url: peer.url("_expire")))
                #expect(try await alice.send(.get, peer.url("api/me")).status.code == 200)
                let renewed = try #require(try await alice.session.vault.load(BearerTokenSet.self, for: alice.account))
                let renewedEnd = try #require(renewed.refreshExpiresAt)
                #expect(renewed.refreshToken != tokens.refreshToken)
                let atRenewal = await recorder.waitFor { $0.contains(.refreshTokenExpiring(alice.account, expiresAt: renewedEnd)) }
                #expect(atRenewal.contains(.refreshTokenExpiring(alice.account, expiresAt: renewedEnd)))

                // Outside the (default, five-minute) notice: not reported.
                let quiet = AuthContainer()
                quiet.useHTTPClient(transport)
                let quietRecorder = EventRecorder(quiet[AuthEventsKey.self])
                let bob = quiet.makeClient(for: AccountKey(namespace: "provider", account: "bob"), strategy: BearerStrategy(allowedHosts: AllowedHosts(origin: peer.base), refresher: app))
                try await bob.signIn(try await Self.signIn(peer, app, transport: transport))
                try await bob.signOut()  // events arrive in order: once this one is seen, any notice for the sign-in was too
                let quietEvents = await quietRecorder.waitFor { $0.contains(.signedOut(bob.account)) }
                #expect(quietEvents.contains(.signedIn(bob.account)))
                #expect(!quietEvents.contains { if case .refreshTokenExpiring = $0 { true } else { false } })
            }
        }
    }

    /// Past the refresh token's expiry (the client's clock two hours on), the renewal a refused
    /// request needs is not sent: the request fails with `reauthenticationRequired` carrying
    /// ``RefreshTokenExpired``, and the provider sees no refresh grant.
    @Test func anExpiredRefreshTokenIsNotSent() async throws {
        try await InteropPeer.run("authlib_provider.py", accessSeconds: 300, arguments: ["--refresh-seconds", "3600"]) { peer in
            try await HTTPClientTransport.withTransport { transport in
                let provider = try InteropOAuth2ProviderTests.provider(peer, transport: transport)
                let tokens = try await Self.signIn(peer, OAuth2Client(provider: provider, clientID: "app", transport: transport), transport: transport)
                let later = ManualClock(start: Date().addingTimeInterval(7200))
                let app = OAuth2Client(provider: provider, clientID: "app", transport: transport, clock: later)
                let refreshSecret = try #require(tokens.refreshToken).reveal

                await #expect { _ = try await app.refresh(tokens) } throws: { error in
                    guard let error = error as? AuthError, let expired = error.underlying as? RefreshTokenExpired else { return false }
                    return error.code == .reauthenticationRequired && expired.expiredAt == tokens.refreshExpiresAt
                        && !error.description.contains(refreshSecret)
                }

                let container = AuthContainer()
                container.useHTTPClient(transport)
                let recorder = EventRecorder(container[AuthEventsKey.self])
                let alice = container.makeClient(for: AccountKey(namespace: "provider", account: "alice"), strategy: BearerStrategy(allowedHosts: AllowedHosts(origin: peer.base), refresher: app))
                try await alice.signIn(tokens)
                _ = try await transport.send(AuthRequest(method: .post, url: peer.url("_expire")))
                await #expect { _ = try await alice.send(.get, peer.url("api/me")) } throws: { error in
                    (error as? AuthError)?.code == .reauthenticationRequired && (error as? AuthError)?.underlying is RefreshTokenExpired
                }
                let counters = try await peer.counters(transport)
                #expect(counters["refresh_token_grants"] == 0)
                #expect(counters["expired_refresh_tokens"] == 0)
                let events = await recorder.waitFor { $0.contains { if case .reauthenticationRequired = $0 { true } else { false } } }
                #expect(events.contains { if case .reauthenticationRequired(alice.account, _) = $0 { true } else { false } })
                // The stored tokens stay: a failed renewal is not a sign-out.
                #expect(try await alice.session.vault.load(BearerTokenSet.self, for: alice.account) == tokens)
            }
        }
    }

    /// Authlib's resource protector answers a token without the scope with a 403 whose JSON
    /// body says `insufficient_scope` (and no challenge field): surfaced as a step-up too.
    @Test func authlibsInsufficientScopeIsAStepUp() async throws {
        try await InteropPeer.run("authlib_provider.py", accessSeconds: 300) { peer in
            try await HTTPClientTransport.withTransport { transport in
                let app = OAuth2Client(provider: try InteropOAuth2ProviderTests.provider(peer, transport: transport), clientID: "app", transport: transport)
                let tokens = try await Self.signIn(peer, app, transport: transport)
                let container = AuthContainer()
                container.useHTTPClient(transport)
                let recorder = EventRecorder(container[AuthEventsKey.self])
                let alice = container.makeClient(for: AccountKey(namespace: "provider", account: "alice"), strategy: BearerStrategy(allowedHosts: AllowedHosts(origin: peer.base), refresher: app))
                try await alice.signIn(tokens)
                let expected = StepUpChallenge(reason: .scope, status: 403)
                await #expect { _ = try await alice.send(.get, peer.url("api/write")) } throws: { error in
                    (error as? AuthError)?.code == .stepUpRequired && (error as? AuthError)?.underlying as? StepUpChallenge == expected
                }
                let events = await recorder.waitFor { $0.contains(.stepUpRequired(alice.account, expected)) }
                #expect(events.contains(.stepUpRequired(alice.account, expected)))
                #expect(try await peer.counters(transport)["refresh_token_grants"] == 0)
            }
        }
    }
}
