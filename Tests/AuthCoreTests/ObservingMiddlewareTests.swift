// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthTesting
import Foundation
import HTTPTypes
import Testing

/// An observer is a middleware whose `intercept` runs its hooks around `next`: what it sees, and
/// when, is what a plain middleware in its place would see.
@Suite struct ObservingMiddlewareTests {
    typealias Trace = PipelineTests.Trace
    static let tag = PipelineTests.tag

    /// Records each hook with the request's `X-Trace` and the response's.
    struct Watcher: ObservingMiddleware {
        let name: String
        let trace: Trace

        func willSend(_ request: AuthRequest) {
            trace.record("\(name) sees \(request.head.headerFields[tag] ?? "")")
        }
        func didReceive(_ response: AuthResponse, for request: AuthRequest) {
            trace.record("\(name) got \(response.status.code) \(response.headerValue(tag) ?? "") for \(request.head.headerFields[tag] ?? "")")
        }
        func didFail(_ error: any Error, for request: AuthRequest) {
            trace.record("\(name) failed: \(error)")
        }
    }

    /// A middleware that tags the request on its way out and the response on its way back.
    static func tagging(_ name: String) -> ClosureMiddleware {
        ClosureMiddleware { request, next in
            var request = request
            request.head.headerFields[tag] = (request.head.headerFields[tag].map { $0 + "," } ?? "") + name
            var response = try await next(request)
            var head = response.head
            head.headerFields[tag] = (head.headerFields[tag].map { $0 + "," } ?? "") + name
            response.head = head
            return response
        }
    }

    /// What an observer does, written out by hand as a plain middleware: its hooks around
    /// `next`, each recorded as the observer records it.
    static func byHand(_ name: String, _ trace: Trace) -> ClosureMiddleware {
        ClosureMiddleware { request, next in
            trace.record("\(name) sees \(request.head.headerFields[tag] ?? "")")
            do {
                let response = try await next(request)
                trace.record("\(name) got \(response.status.code) \(response.head.headerFields[tag] ?? "") for \(request.head.headerFields[tag] ?? "")")
                return response
            } catch {
                trace.record("\(name) failed: \(error)")
                throw error
            }
        }
    }

    static func transport(_ trace: Trace, failing: Bool = false) -> ClosureTransport {
        ClosureTransport { request in
            trace.record("transport \(request.head.headerFields[tag] ?? "")")
            if failing { throw AuthError.transport("the connection was refused") }
            return AuthResponse(status: .ok)
        }
    }

    /// Observers first, between, and last: each pipeline against the same one with every observer
    /// written out by hand as a plain middleware (hooks around `next`).
    @Test(arguments: [
        ["o1", "a", "o2", "o3", "b", "o4"],
        ["a", "b"],
        ["o1", "o2"],
        ["a", "o1"],
        ["o1", "a"],
    ])
    func observersSeeWhatTheirOwnInterceptWould(_ layout: [String]) async throws {
        for failing in [false, true] {
            let observed = Trace()
            let written = Trace()
            func middlewares(_ trace: Trace, observers: Bool) -> [any Middleware] {
                layout.map { name in
                    guard name.hasPrefix("o") else { return Self.tagging(name) }
                    return observers ? Watcher(name: name, trace: trace) : Self.byHand(name, trace)
                }
            }
            let client = AuthClient(transport: Self.transport(observed, failing: failing), middlewares: middlewares(observed, observers: true))
            let reference = AuthClient(transport: Self.transport(written, failing: failing), middlewares: middlewares(written, observers: false))
            let url = URL(string: "https://api.example.com/v1/items")!
            let answer = try? await client.send(.get, url)
            let expected = try? await reference.send(.get, url)
            #expect(answer?.status == expected?.status)
            #expect(observed.all == written.all)
            #expect(observed.all.count == layout.count(where: { $0.hasPrefix("o") }) * 2 + 1)
        }
    }

    @Test func theOrderIsNestingOrder() async throws {
        let trace = Trace()
        let client = AuthClient(transport: Self.transport(trace), middlewares: [
            Watcher(name: "o1", trace: trace), Self.tagging("a"), Watcher(name: "o2", trace: trace),
            Watcher(name: "o3", trace: trace), Self.tagging("b"),
        ])
        _ = try await client.send(.get, URL(string: "https://api.example.com/")!)
        #expect(trace.all == [
            "o1 sees ", "o2 sees a", "o3 sees a", "transport a,b",
            "o3 got 200 b for a", "o2 got 200 b for a", "o1 got 200 b,a for ",
        ])
    }

    @Test func anObserverInsideARetrySeesEveryAttempt() async throws {
        let trace = Trace()
        let statuses = RetryMiddlewareTests.Script([AuthResponse(status: .serviceUnavailable)])
        let client = AuthClient(transport: statuses.transport, middlewares: [
            RetryMiddleware(clock: ManualClock(), random: { 0 }), Watcher(name: "o", trace: trace),
        ])
        let response = try await client.send(.get, URL(string: "https://api.example.com/")!)
        #expect(response.status == .ok)
        #expect(trace.all == ["o sees ", "o got 503  for ", "o sees ", "o got 200  for "])
    }

    @Test func aFailureReachesEveryObserverInnermostFirstAndIsThrown() async throws {
        let trace = Trace()
        let client = AuthClient(transport: Self.transport(trace, failing: true), middlewares: [
            Watcher(name: "o1", trace: trace), Watcher(name: "o2", trace: trace),
        ])
        await #expect(throws: AuthError.self) { try await client.send(.get, URL(string: "https://api.example.com/")!) }
        #expect(trace.all.count == 5)
        #expect(trace.all[3].hasPrefix("o2 failed") && trace.all[4].hasPrefix("o1 failed"))
    }

    /// An observer inside a timeout sees the cancelled attempt fail; one outside sees the timeout.
    @Test func aTimeoutReachesTheObserversOnBothSidesAsEachSeesIt() async throws {
        let trace = Trace()
        let hanging = ClosureTransport { _ in
            try await Task.sleep(for: .seconds(60))
            return AuthResponse(status: .ok)
        }
        let client = AuthClient(transport: hanging, middlewares: [
            Watcher(name: "outer", trace: trace), TimeoutMiddleware(timeout: .milliseconds(50)), Watcher(name: "inner", trace: trace),
        ])
        await #expect(throws: AuthError.self) { try await client.send(.get, URL(string: "https://api.example.com/")!) }
        let failures = trace.all.filter { $0.contains("failed") }
        #expect(failures.count == 2)
        #expect(failures.first == "inner failed: CancellationError()")
        #expect(failures.last?.hasPrefix("outer failed: ") == true && failures.last?.contains("timeout") == true)
    }

    /// Called by hand, with the rest of the pipeline as a closure, an observer runs its hooks.
    @Test func anObserverCalledByHandRunsItsHooks() async throws {
        let trace = Trace()
        let watcher = Watcher(name: "o", trace: trace)
        let request = try AuthRequest(method: .get, url: URL(string: "https://api.example.com/")!)
        let response = try await watcher.intercept(request) { _ in AuthResponse(status: .accepted) }
        #expect(response.status == .accepted)
        #expect(trace.all == ["o sees ", "o got 202  for "])
    }
}
