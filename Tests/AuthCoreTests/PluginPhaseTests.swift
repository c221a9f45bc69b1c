// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Foundation
import HTTPTypes
import Testing

/// Plug-ins attach through one call, `addMiddleware(_:named:_:)`: the phase decides where a
/// middleware runs, whatever order the calls came in; each call is one atomic change; a name
/// added again replaces its middleware.
@Suite struct PluginPhaseTests {
    typealias Trace = PipelineTests.Trace

    let url = URL(string: "https://api.example.com/v1/items")!
    let alice = AccountKey(namespace: "api", account: "alice")

    /// A container whose transport records the `X-Trace` each request arrives with, and whose
    /// account is signed in with a token valid for an hour.
    func signedInClient(_ container: AuthContainer, trace: Trace) async throws -> AccountClient<BearerStrategy> {
        container.override(TransportKey.self, with: PipelineTests.transport(trace))
        let client = container.makeClient(for: alice, strategy: BearerStrategy(allowedHosts: AllowedHosts(["api.example.com"])) { $0 })
        try await client.signIn(BearerTokenSet(accessToken: "a-token", expiresAt: Date().addingTimeInterval(3600)))
        return client
    }

    /// Added in the reverse of their order, the phases still run outermost first: observation,
    /// caching, then the core's authentication, then proof, session and signing; within a phase,
    /// in the order added. The signer, added first, sees what every other phase wrote, the
    /// credential included.
    @Test func thePhaseDecidesTheOrderNotTheCalls() async throws {
        let trace = Trace()
        let container = AuthContainer()
        container.addMiddleware(.signing) { _ in PipelineTests.tracing("signing", trace) }
        container.addMiddleware(.session) { _ in PipelineTests.tracing("session", trace) }
        container.addMiddleware(.proof) { _ in PipelineTests.tracing("proof", trace) }
        container.addMiddleware(.caching) { _ in PipelineTests.tracing("caching", trace) }
        container.addMiddleware(.observation) { _ in PipelineTests.tracing("observation 1", trace) }
        container.addMiddleware(.observation) { _ in PipelineTests.tracing("observation 2", trace) }
        container.addMiddleware(.signing) { _ in
            ClosureMiddleware { request, next in
                trace.record("signer sees a credential: \(request.head.headerFields[.authorization] != nil)")
                return try await next(request)
            }
        }
        let client = try await signedInClient(container, trace: trace)
        _ = try await client.send(.get, url)
        #expect(trace.all == [
            "observation 1>", "observation 2>", "caching>", "proof>", "session>", "signing>",
            "signer sees a credential: true",
            "transport:observation 1,observation 2,caching,proof,session,signing",
            "<signing", "<session", "<proof", "<caching", "<observation 2", "<observation 1",
        ])
    }

    /// Many tasks adding at once: every middleware is kept (a read, change and write back of the
    /// container's entry by each caller would lose some).
    @Test func concurrentAdditionsAreAllKept() async throws {
        let container = AuthContainer()
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<200 {
                group.addTask { container.addMiddleware(.session, named: "m\(index)") { _ in ClosureMiddleware { try await $1($0) } } }
            }
        }
        #expect(Set(container[PluginMiddlewaresKey.self].names) == Set((0..<200).map { "m\($0)" }))
    }

    /// A middleware added again under its name replaces the first in its place (a `use…` called
    /// twice installs once); added under the same name in another phase, it moves there.
    @Test func aNameAddedAgainReplacesItsMiddleware() async throws {
        let trace = Trace()
        let container = AuthContainer()
        container.addMiddleware(.session, named: "first") { _ in PipelineTests.tracing("first", trace) }
        container.addMiddleware(.session, named: "cookies") { _ in PipelineTests.tracing("cookies v1", trace) }
        container.addMiddleware(.session, named: "last") { _ in PipelineTests.tracing("last", trace) }
        container.addMiddleware(.session, named: "cookies") { _ in PipelineTests.tracing("cookies v2", trace) }
        container.addMiddleware(.caching, named: "last") { _ in PipelineTests.tracing("last, now caching", trace) }
        let client = try await signedInClient(container, trace: trace)
        _ = try await client.send(.get, url)
        #expect(trace.all.filter { $0.hasPrefix("transport") } == ["transport:last, now caching,first,cookies v2"])
        #expect(container[PluginMiddlewaresKey.self].names == ["last", "first", "cookies"])
    }
}
