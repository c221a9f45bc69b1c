// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Foundation
import HTTPTypes
import Synchronization
import Testing

/// The client's pipeline: middlewares in order around the transport, linked once.
@Suite struct PipelineTests {
    /// Records the way in and out of each step.
    final class Trace: Sendable {
        let steps = Mutex<[String]>([])
        func record(_ step: String) { steps.withLock { $0.append(step) } }
        var all: [String] { steps.withLock { $0 } }
    }

    static let tag = HTTPField.Name("X-Trace")!

    /// A middleware that adds its name to the request's `X-Trace` and records its way in and out.
    static func tracing(_ name: String, _ trace: Trace) -> ClosureMiddleware {
        ClosureMiddleware { request, next in
            trace.record("\(name)>")
            var request = request
            request.head.headerFields[tag] = (request.head.headerFields[tag].map { $0 + "," } ?? "") + name
            let response = try await next(request)
            trace.record("<\(name)")
            return response
        }
    }

    static func transport(_ trace: Trace) -> ClosureTransport {
        ClosureTransport { request in
            trace.record("transport:\(request.head.headerFields[tag] ?? "")")
            return AuthResponse(status: .ok)
        }
    }

    let url = URL(string: "https://api.example.com/v1/items")!

    @Test func theFirstMiddlewareIsTheOutermostAndEachSeesWhatTheOneBeforeItPassedOn() async throws {
        let trace = Trace()
        let client = AuthClient(transport: Self.transport(trace), middlewares: ["a", "b", "c"].map { Self.tracing($0, trace) })
        let response = try await client.send(.get, url)
        #expect(response.status == .ok)
        #expect(trace.all == ["a>", "b>", "c>", "transport:a,b,c", "<c", "<b", "<a"])
        // The links are made once; a second request goes through the same order.
        _ = try await client.send(.get, url)
        #expect(trace.all.count == 14)
    }

    @Test func withoutMiddlewaresTheRequestGoesStraightToTheTransport() async throws {
        let trace = Trace()
        let response = try await AuthClient(transport: Self.transport(trace)).send(.get, url)
        #expect(response.status == .ok)
        #expect(trace.all == ["transport:"])
    }

    @Test func aMiddlewareMayAnswerWithoutNextOrCallNextTwice() async throws {
        let trace = Trace()
        let answering = ClosureMiddleware { _, _ in AuthResponse(status: .notModified) }
        let twice = ClosureMiddleware { request, next in
            _ = try await next(request)
            return try await next(request)
        }
        let answered = try await AuthClient(transport: Self.transport(trace), middlewares: [answering]).send(.get, url)
        #expect(answered.status == .notModified)
        #expect(trace.all.isEmpty)
        _ = try await AuthClient(transport: Self.transport(trace), middlewares: [twice, Self.tracing("inner", trace)]).send(.get, url)
        #expect(trace.all == ["inner>", "transport:inner", "<inner", "inner>", "transport:inner", "<inner"])
    }

    @Test func aMiddlewareCalledByHandTakesAClosureForTheRestOfThePipeline() async throws {
        let trace = Trace()
        let response = try await Self.tracing("solo", trace).intercept(AuthRequest(method: .get, url: url)) { request in
            trace.record("closure:\(request.head.headerFields[Self.tag] ?? "")")
            return AuthResponse(status: .accepted)
        }
        #expect(response.status == .accepted)
        #expect(trace.all == ["solo>", "closure:solo", "<solo"])
    }

    /// A middleware whose work should leave the caller's executor, as the protocol suggests.
    struct OffExecutor: Middleware {
        let trace: Trace
        @concurrent func intercept(_ request: AuthRequest, next: Next) async throws -> AuthResponse {
            trace.record("concurrent>")
            return try await next(request)
        }
    }

    @Test func aConcurrentMiddlewareTakesPartInThePipelineLikeAnyOther() async throws {
        let trace = Trace()
        let client = AuthClient(transport: Self.transport(trace), middlewares: [Self.tracing("a", trace), OffExecutor(trace: trace), Self.tracing("b", trace)])
        #expect(try await client.send(.get, url).status == .ok)
        #expect(trace.all == ["a>", "concurrent>", "b>", "transport:a,b", "<b", "<a"])
    }

    @Test func anErrorFromTheTransportReachesTheCallerThroughEveryMiddleware() async throws {
        let trace = Trace()
        let failing = ClosureTransport { _ in throw AuthError(code: .transport, message: "connection refused") }
        let client = AuthClient(transport: failing, middlewares: [Self.tracing("a", trace)])
        await #expect { try await client.send(.get, url) } throws: { ($0 as? AuthError)?.code == .transport }
        #expect(trace.all == ["a>"])
    }
}
