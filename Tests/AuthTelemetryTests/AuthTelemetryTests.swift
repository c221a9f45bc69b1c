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
import AuthTelemetry
import AuthTestServer
import AuthTesting
import Foundation
import InMemoryTracing
import MetricsTestKit
import Testing
import Tracing

/// Issue 22: metrics and spans for a renewal, a failed renewal and requests, with bounded labels
/// and no secret anywhere, against AuthTestServer.
@Suite struct AuthTelemetryTests {
    static let alice = AccountKey(namespace: "testserver", account: "alice")

    struct Fixture {
        let server: AuthTestServer
        let client: AccountClient<BearerStrategy>
        let metrics: TestMetrics
        let tracer: InMemoryTracer
        let telemetry: AuthTelemetry
        let tokens: BearerTokenSet
    }

    func withSignedIn(includesAccount: Bool = false, configure: (AuthContainer) -> Void = { _ in }, _ body: (Fixture) async throws -> Void) async throws {
        try await AuthTestServer.withRunning { server in
            try await HTTPClientTransport.withTransport { transport in
                let metrics = TestMetrics()
                let tracer = InMemoryTracer()
                let container = AuthContainer()
                container.useHTTPClient(transport)
                configure(container)
                let telemetry = container.useTelemetry(metrics: metrics, tracer: tracer, includesAccount: includesAccount)
                let refresher = OAuth2RefreshTokenRefresher(tokenEndpoint: server.baseURL.appending(path: "auth/refresh"), clientID: "app", transport: transport)
                let strategy = BearerStrategy(allowedHosts: AllowedHosts(origin: server.baseURL), refresher: TelemetryTokenRefresher(refresher, telemetry: telemetry, account: Self.alice))
                let client = container.makeClient(for: Self.alice, strategy: strategy)
                let credentials = try JSONEncoder().encode(["username": "alice", "password": "correct horse battery staple"])
                _ = try await transport.send(AuthRequest(method: .post, url: server.baseURL.appending(path: "auth/register"), headerFields: [.contentType: "application/json"], body: credentials))
                let login = try await transport.send(AuthRequest(method: .post, url: server.baseURL.appending(path: "auth/login"), headerFields: [.contentType: "application/json"], body: credentials))
                let tokens = try TokenResponse.parse(login.body).tokenSet(issuedAt: server.clock.now())
                try await client.signIn(tokens)
                try await body(Fixture(server: server, client: client, metrics: metrics, tracer: tracer, telemetry: telemetry, tokens: tokens))
            }
        }
    }

    /// Every dimension and attribute, for the secret and cardinality checks.
    func everyLabel(_ f: Fixture) -> [String] {
        let dimensions = (f.metrics.counters.map(\.dimensions) + f.metrics.timers.map(\.dimensions)).flatMap { $0 }.map { "\($0.0)=\($0.1)" }
        var attributes: [String] = []
        for span in f.tracer.finishedSpans {
            span.attributes.forEach { key, value in attributes.append("\(key)=\(value)") }
        }
        return dimensions + attributes
    }

    @Test func aRenewalIsCountedTimedAndTracedInsideItsRequest() async throws {
        try await withSignedIn { f in
            #expect(try await f.client.send(.get, f.server.baseURL.appending(path: "me")).status == .ok)
            f.server.clock.advance(by: 301)
            #expect(try await f.client.send(.get, f.server.baseURL.appending(path: "me")).status == .ok)

            #expect(await eventually { f.metrics.counterTotal(label: "authkit_renewals", dimensions: [("namespace", "testserver"), ("outcome", "renewed")]) == 1 })
            let requests = try f.metrics.expectTimer("authkit_requests", [("namespace", "testserver"), ("outcome", "2xx")])
            #expect(requests.values.count == 2)
            let renewal = try f.metrics.expectTimer("authkit_renewal_duration", [("namespace", "testserver"), ("outcome", "renewed")])
            #expect(renewal.values.count == 1)

            let spans = f.tracer.finishedSpans
            let requestSpans = spans.filter { $0.operationName == "authkit.request" }
            let renewalSpans = spans.filter { $0.operationName == "authkit.renewal" }
            #expect(requestSpans.count == 2 && renewalSpans.count == 1)
            #expect(renewalSpans.first?.spanContext.parentSpanID == requestSpans.last?.spanContext.spanID, "the renewal is a child of the request that waited for it")
            #expect(requestSpans.last?.attributes["http.response.status_code"]?.toSpanAttribute() == .int64(200))
            #expect(requestSpans.last?.attributes["server.address"]?.toSpanAttribute() == .string("127.0.0.1"))

            let labels = everyLabel(f)
            #expect(!labels.contains { $0.contains("alice") }, "the account id is not a label unless asked for")
            #expect(!labels.contains { $0.contains(f.tokens.accessToken.reveal) || $0.contains(f.tokens.refreshToken?.reveal ?? "-") })
        }
    }

    @Test func aFailedRenewalIsCountedWithItsCode() async throws {
        try await withSignedIn { f in
            _ = await f.server.revokeRefreshTokens(username: "alice")
            f.server.clock.advance(by: 301)
            await #expect { try await f.client.send(.get, f.server.baseURL.appending(path: "me")) } throws: { ($0 as? AuthError)?.code == .reauthenticationRequired }
            #expect(await eventually { f.metrics.counterTotal(label: "authkit_reauthentication_required", dimensions: [("namespace", "testserver")]) == 1 })
            let failed = try f.metrics.expectTimer("authkit_requests", [("namespace", "testserver"), ("outcome", "reauthenticationRequired")])
            #expect(failed.values.count == 1)
            let renewal = try f.metrics.expectTimer("authkit_renewal_duration", [("namespace", "testserver"), ("outcome", "reauthenticationRequired")])
            #expect(renewal.values.count == 1)
            let span = try #require(f.tracer.finishedSpans.first { $0.operationName == "authkit.renewal" })
            #expect(span.status?.code == .error)
            #expect(span.attributes["error.type"]?.toSpanAttribute() == .string("reauthenticationRequired"))
            #expect(!everyLabel(f).contains { $0.contains(f.tokens.refreshToken?.reveal ?? "-") })
            // No error recorded with its text (which names the account and the server's words):
            // the code is an attribute, nothing else.
            #expect(f.tracer.finishedSpans.allSatisfy { $0.errors.isEmpty && $0.events.isEmpty })
            let requestSpan = try #require(f.tracer.finishedSpans.first { $0.operationName == "authkit.request" })
            #expect(requestSpan.attributes["error.type"]?.toSpanAttribute() == .string("reauthenticationRequired"))
        }
    }

    /// AuthCache's response cache outermost but for the telemetry middleware: a miss then a hit,
    /// counted by outcome from `AuthResponse.cacheOutcome`, and named on each span.
    @Test func aCacheMissAndHitAreCountedAndTraced() async throws {
        try await withSignedIn(configure: { $0.useResponseCache() }) { f in
            let url = f.server.baseURL.appending(path: "cache/max-age/60")
            #expect(try await f.client.send(.get, url).status == .ok)
            #expect(try await f.client.send(.get, url).status == .ok)
            #expect(f.server.counters.requests(path: "/cache/max-age/60") == 1, "the second was a hit")
            #expect(f.metrics.counterTotal(label: "authkit_cache_lookups", dimensions: [("namespace", "testserver"), ("outcome", "miss")]) == 1)
            #expect(f.metrics.counterTotal(label: "authkit_cache_lookups", dimensions: [("namespace", "testserver"), ("outcome", "hit")]) == 1)
            let requests = try f.metrics.expectTimer("authkit_requests", [("namespace", "testserver"), ("outcome", "2xx")])
            #expect(requests.values.count == 2)
            let outcomes = f.tracer.finishedSpans.filter { $0.operationName == "authkit.request" }.map { $0.attributes["authkit.cache"]?.toSpanAttribute() }
            #expect(outcomes == [.string("miss"), .string("hit")])
            let labels = everyLabel(f)
            #expect(!labels.contains { $0.contains("alice") || $0.contains(f.tokens.accessToken.reveal) })
        }
    }

    /// A server that sends AuthKit's own `Cache-Status` member cannot make a lookup count: the
    /// outcome is what the cache set on the response in this process (pure logic, no cache).
    @Test func aCacheStatusFieldFromTheServerIsNotCounted() async throws {
        let metrics = TestMetrics()
        let telemetry = AuthTelemetry(metrics: metrics, tracer: InMemoryTracer())
        let spoofing = ClosureTransport { _ in AuthResponse(status: .ok, headerFields: [.cacheStatus: "AuthKit; hit"]) }
        let client = AuthClient(transport: spoofing, middlewares: [RequestTelemetryMiddleware(telemetry: telemetry, account: Self.alice)])
        #expect(try await client.send(.get, URL(string: "https://api.example.com/a")!).status == .ok)
        #expect(metrics.counters.allSatisfy { $0.label != "authkit_cache_lookups" })
        #expect(try metrics.expectTimer("authkit_requests", [("namespace", "testserver"), ("outcome", "2xx")]).values.count == 1)
    }

    @Test func theAccountIsALabelOnlyWhenAskedFor() async throws {
        try await withSignedIn(includesAccount: true) { f in
            #expect(try await f.client.send(.get, f.server.baseURL.appending(path: "me")).status == .ok)
            let requests = try f.metrics.expectTimer("authkit_requests", [("namespace", "testserver"), ("account", "alice"), ("outcome", "2xx")])
            #expect(requests.values.count == 1)
            #expect(f.tracer.finishedSpans.first?.attributes["authkit.account"]?.toSpanAttribute() == .string("alice"))
        }
    }
}

/// Whether `condition` holds within 30 seconds (at once when it does: the bound only decides how
/// long a failing test takes, and a full run's loaded start can delay a task by seconds).
func eventually(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<3_000 {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}
