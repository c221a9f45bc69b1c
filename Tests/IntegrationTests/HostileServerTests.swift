// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCache
import AuthCore
import AuthHTTPClient
import AuthOAuth2
import AuthTestServer
import AuthTesting
import Foundation
import HTTPTypes
import Logging
import Testing

/// A server, over real HTTP on 127.0.0.1, that sends what once ended the client process or
/// moved a credential to another origin (issue 25).
@Suite struct HostileServerTests {
    static let hugeYear = "Sun, 06 Nov 691111101111141 08:49:37 GMT"

    @Test func aHugeDateOnAnAuthenticatedResponseIsIgnored() async throws {
        try await Harness.run { h in
            let client = try await h.signedInClient("alice", container: h.container())
            h.server.faults.inject(.response(status: 200, headers: ["Date": Self.hugeYear], body: "{}"), path: "/me")
            let response = try await client.send(.get, h.url("me"))
            #expect(response.status == .ok)
            #expect(response.head.headerFields[.date] == Self.hugeYear)
            // The next, ordinary response still works and the skew estimate was not moved.
            #expect(try await client.send(.get, h.url("me")).status == .ok)
        }
    }

    @Test func aHugeDateOnTheTokenEndpointFallsBackToTheClientClock() async throws {
        try await Harness.run { h in
            try await h.register("bob")
            let tokens = try await h.login("bob")
            h.server.faults.inject(.response(status: 200, headers: ["Date": Self.hugeYear], body: #"{"access_token":"a","expires_in":300,"refresh_token":"r"}"#), path: "/auth/refresh")
            let before = Date()
            let renewed = try await OAuth2RefreshTokenRefresher(tokenEndpoint: h.url("auth/refresh"), clientID: "t", transport: h.transport).refresh(tokens)
            let expiry = try #require(renewed.expiresAt)
            #expect(expiry >= before.addingTimeInterval(299) && expiry <= Date().addingTimeInterval(301))
        }
    }

    /// Issue 52: a `DPoP` token when no DPoP binding was asked for was accepted, and the next
    /// request would have sent `Authorization: DPoP <token>` without a proof; an unknown type
    /// too. Only Bearer (in any case) is used without a binding (RFC 6749 §7.1).
    @Test(arguments: [("DPoP", false), ("mac", false), ("N_A", false), ("bearer", true), ("BEARER", true)])
    func aTokenOfATypeTheClientCannotUseIsRefused(tokenType: String, accepted: Bool) async throws {
        try await Harness.run { h in
            h.server.faults.inject(.response(status: 200, headers: ["Content-Type": "application/json"], body: #"{"access_token":"a","expires_in":300,"token_type":"\#(tokenType)"}"#), path: "/oauth/typed")
            let endpoint = OAuth2TokenEndpoint(url: h.url("oauth/typed"), clientID: "t", transport: h.transport)
            do {
                let tokens = try await endpoint.requestTokens([("grant_type", "client_credentials")])
                #expect(accepted, "a \(tokenType) token was accepted")
                #expect(tokens.tokenType == tokenType)
            } catch let error as AuthError {
                #expect(!accepted, "a \(tokenType) token was refused: \(error)")
                #expect(error.code == .misconfigured)
                #expect(error.message.contains(tokenType))
            }
        }
    }

    /// Issue 52: a device authorization answer whose `verification_uri` is plain http on another
    /// host was accepted and would have been shown to the user; every endpoint is checked for
    /// https (or loopback http), and so are the pages a user is sent to.
    @Test(arguments: ["verification_uri", "verification_uri_complete"])
    func aDeviceVerificationPageOverPlainHTTPIsRefused(field: String) async throws {
        try await Harness.run { h in
            let plain = "http://evil.example/device"
            let page = field == "verification_uri" ? plain : "https://auth.example.com/device"
            let complete = field == "verification_uri_complete" ? plain : "https://auth.example.com/device?c=1"
            let body = #"{"device_code":"d","user_code":"U","expires_in":60,"interval":1,"verification_uri":"\#(page)","verification_uri_complete":"\#(complete)"}"#
            h.server.faults.inject(.response(status: 200, headers: ["Content-Type": "application/json"], body: body), path: "/oauth2/device_authorization")
            let metadata = AuthorizationServerMetadata(issuer: h.url(""), tokenEndpoint: h.url("oauth2/token"), deviceAuthorizationEndpoint: h.url("oauth2/device_authorization"))
            let app = OAuth2Client(provider: OAuth2Provider(metadata: metadata), clientID: "app", transport: h.transport)
            let error = await #expect(throws: AuthError.self) { try await app.startDeviceAuthorization(scopes: ["read"]) }
            #expect(error?.code == .misconfigured)
            #expect(error?.message.contains(field) == true)
        }
    }

    /// Issue 52: a 503 with `Retry-After` from the token endpoint was neither honoured nor
    /// surfaced. A short one is waited for and the grant tried once more; a long one is on the
    /// error.
    @Test func aTokenEndpointsRetryAfterIsHonouredWhenShortAndSurfacedWhenLong() async throws {
        try await Harness.run { h in
            try await h.register("carol")
            let tokens = try await h.login("carol")
            let refresher = OAuth2RefreshTokenRefresher(tokenEndpoint: h.url("auth/refresh"), clientID: "t", transport: h.transport)
            h.server.faults.inject(.status(503, retryAfter: "1"), path: "/auth/refresh")
            let renewed = try await refresher.refresh(tokens)
            #expect(renewed.accessToken != tokens.accessToken)
            #expect(h.server.counters.requests(path: "/auth/refresh") == 2)

            h.server.faults.inject(.status(429, retryAfter: "120"), path: "/auth/refresh")
            let error = await #expect(throws: AuthError.self) { try await refresher.refresh(renewed) }
            #expect(error?.code == .renewalFailed)
            #expect(error?.retryAfter == .seconds(120))
            #expect(h.server.counters.requests(path: "/auth/refresh") == 3)
        }
    }

    /// A cacheable response whose `Expires` and `Date` hold a fifteen-digit year is stored as
    /// already stale, and the client goes on.
    @Test func aHugeExpiresThroughTheResponseCacheIsStale() async throws {
        try await Harness.run { h in
            let container = h.container()
            container.useResponseCache(.init())
            let client = try await h.signedInClient("erin", container: container)
            h.server.faults.inject(.response(status: 200, headers: ["Expires": Self.hugeYear, "Date": Self.hugeYear], body: "first"), path: "/echo")
            #expect(try await client.send(.get, h.url("echo")).status == .ok)
            #expect(try await client.send(.get, h.url("echo")).status == .ok)
            #expect(h.server.counters.requests(path: "/echo") == 2)
        }
    }

    /// The retry middleware runs for every host, allowed or not: `localhost` is not among the
    /// bearer strategy's hosts here.
    @Test(arguments: [String(repeating: "9", count: 400), "1000000000000000000000", Self.hugeYear])
    func aHugeRetryAfterFromAHostThatIsNotAllowedWaitsTheCap(value: String) async throws {
        try await Harness.run { h in
            let container = h.container()
            let clock = ManualClock()
            container.override(ClockKey.self, with: clock)
            let client = try await h.signedInClient("carol", container: container)
            h.server.faults.inject(.status(429, retryAfter: value), path: "/echo")
            let port = try #require(h.base.port)
            let response = try await client.send(.get, URL(string: "http://localhost:\(port)/echo")!)
            #expect(response.status == .ok)
            #expect(h.server.counters.requests(path: "/echo") == 2)
            #expect(h.server.counters.lastHeaders(path: "/echo")["authorization"] == nil)
            let waited = clock.sleeps.last
            #expect(waited == RetryPolicy().maxRetryAfter || value == Self.hugeYear && waited != nil)
        }
    }

    /// `127.0.0.1:F?@127.0.0.1:A` once passed the check for A while the transport connected to F.
    @Test(arguments: ["?", "#", "/"])
    func anAuthorityThatHidesAnotherPortReachesNeitherServer(delimiter: String) async throws {
        try await Harness.run { h in
            try await AuthTestServer.withRunning { foreign in
                let client = try await h.signedInClient("dave", container: h.container())
                let allowed = try #require(h.base.port), other = try #require(foreign.baseURL.port)
                let authority = "127.0.0.1:\(other)\(delimiter)@127.0.0.1:\(allowed)"
                let request = AuthRequest(head: HTTPRequest(method: .get, scheme: "http", authority: authority, path: "/echo"))
                await #expect(throws: AuthError.self) { try await client.send(request) }
                #expect(foreign.counters.requestsByPath.isEmpty)
                #expect(h.server.counters.requests(path: "/echo") == 0)
            }
        }
    }

    /// An API key under a header and a query name of the user's choosing, logged at trace: the
    /// credential's configuration alone keeps them out of every log line.
    @Test func customAPIKeyNamesNeverReachTheLog() async throws {
        try await Harness.run { h in
            let capture = CapturingLogHandler.Capture()
            let container = h.container()
            container.override(LoggerKey.self, with: Logger(label: "t") { _ in CapturingLogHandler(capture: capture, logLevel: .trace) })
            let header = container.makeClient(for: AccountKey(namespace: "svc", account: "h"), strategy: APIKeyHeaderStrategy(allowedHosts: h.hosts))
            try await header.signIn(APIKeyHeaderCredential(headerName: "X-Service-Token", key: "HeaderK3y-s3cr3t"))
            let query = container.makeClient(for: AccountKey(namespace: "svc", account: "q"), strategy: APIKeyQueryStrategy(allowedHosts: h.hosts))
            try await query.signIn(APIKeyQueryCredential(parameterName: "svc_auth", key: "QueryK3y-s3cr3t"))
            container.markSecret(SecretFieldNames(headers: ["X-Tenant-Secret"]))
            let marked = container.makeClient(for: AccountKey(namespace: "svc", account: "h"), strategy: APIKeyHeaderStrategy(allowedHosts: h.hosts))
            var request = try AuthRequest(method: .get, url: h.url("echo"))
            request.head.headerFields[HTTPField.Name("X-Tenant-Secret")!] = "Tenant-s3cr3t"

            #expect(try await header.send(.get, h.url("echo")).status == .ok)
            #expect(h.server.counters.lastHeaders(path: "/echo")["x-service-token"] == "HeaderK3y-s3cr3t")
            #expect(try await query.send(.get, h.url("echo")).status == .ok)
            #expect(try await marked.send(request).status == .ok)
            let text = capture.text
            #expect(text.contains("x-service-token") && text.contains("svc_auth=<redacted>"))
            for secret in ["HeaderK3y-s3cr3t", "QueryK3y-s3cr3t", "Tenant-s3cr3t"] {
                #expect(!text.contains(secret), "the log shows \(secret)")
            }
        }
    }

    /// A header the container marks secret is dropped on a redirect to another origin.
    @Test func aMarkedHeaderIsDroppedOnARedirectToAnotherOrigin() async throws {
        try await Harness.run { h in
            try await AuthTestServer.withRunning { foreign in
                let container = h.container()
                container.markSecret(SecretFieldNames(headers: ["X-Tenant-Secret"], queryItems: ["tenant_key"]))
                let client = container.makePublicClient()
                h.server.faults.inject(.redirect(to: foreign.baseURL.appending(path: "echo").absoluteString + "?tenant_key=Q-s3cr3t&page=2", status: 307), path: "/echo")
                var request = try AuthRequest(method: .get, url: h.url("echo"))
                request.head.headerFields[HTTPField.Name("X-Tenant-Secret")!] = "Tenant-s3cr3t"
                #expect(try await client.send(request).status == .ok)
                #expect(foreign.counters.requests(path: "/echo") == 1)
                #expect(foreign.counters.lastHeaders(path: "/echo")["x-tenant-secret"] == nil)
            }
        }
    }
}
