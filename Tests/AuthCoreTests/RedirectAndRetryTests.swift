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
import Synchronization
import Testing

/// Redirect and retry are ordinary middlewares: each hop is retried on its own, observers inside
/// them see every attempt, and an observer's place in the list decides what it sees.
@Suite struct RedirectAndRetryTests {
    typealias Trace = PipelineTests.Trace

    /// A server in a closure: each path answers its scripted responses in turn (the last one from
    /// then on), a path without a script 200. Records each request as "METHOD path" and whether it
    /// carried the `Authorization` header.
    final class Server: Sendable {
        enum Answer: Sendable {
            case status(Int, location: String? = nil)
            case refused
        }

        let script: [String: [Answer]]
        let sent = Mutex<[String]>([])
        let requestsByPath = Mutex<[String: Int]>([:])
        init(_ script: [String: [Answer]]) { self.script = script }

        var transport: ClosureTransport {
            ClosureTransport { request in
                let path = request.head.path ?? ""
                let credential = request.head.headerFields[.authorization] == nil ? "" : " +auth"
                self.sent.withLock { $0.append("\(request.head.method) \(request.head.authority ?? "")\(path)\(credential)") }
                let attempt = self.requestsByPath.withLock { counts in
                    defer { counts[path, default: 0] += 1 }
                    return counts[path, default: 0]
                }
                let answers = self.script[path] ?? [.status(200)]
                switch answers[min(attempt, answers.count - 1)] {
                case .refused:
                    throw AuthError.transport("the connection was refused")
                case .status(let code, let location):
                    var fields = HTTPFields()
                    if let location { fields[.location] = location }
                    return AuthResponse(status: HTTPResponse.Status(code: code), headerFields: fields)
                }
            }
        }
    }

    /// Records every attempt an observer sees, under its name ("" for the innermost).
    struct Attempts: ObservingMiddleware {
        var name = ""
        let trace: Trace
        func willSend(_ request: AuthRequest) { trace.record("\(name)attempt \(request.head.path ?? "")") }
        func didReceive(_ response: AuthResponse, for request: AuthRequest) { trace.record("\(name)got \(response.status.code)") }
        func didFail(_ error: any Error, for request: AuthRequest) { trace.record("\(name)failed") }
    }

    /// A step of its own after the loops: records the way in.
    static func step(_ trace: Trace) -> ClosureMiddleware {
        ClosureMiddleware { request, next in
            trace.record("step \(request.head.path ?? "")")
            return try await next(request)
        }
    }

    /// What a caller and a server observe of one request.
    struct Outcome: Equatable, CustomStringConvertible {
        let sent: [String]
        let seen: [String]
        /// The retry waits, in milliseconds.
        var waits: [Int64] = []
        let result: String
        var description: String { "sent \(sent), seen \(seen), waits \(waits), \(result)" }
    }

    static let redirect = RedirectMiddleware(maxHops: 2)

    /// The scripts: each names the request and what the paths answer. The retry policy allows
    /// three attempts, waits 400 ms then 800 ms, within 700 ms from the first attempt of each hop.
    static let scenarios: [(name: String, method: HTTPRequest.Method, script: [String: [Server.Answer]])] = [
        ("a hop, then a retried 503", .get, ["/a": [.status(302, location: "/b")], "/b": [.status(503), .status(200)]]),
        ("retried, then a hop", .get, ["/a": [.status(503), .status(307, location: "/b")]]),
        ("a wait on each hop, each within its own budget", .get, ["/a": [.status(503), .status(302, location: "/b")], "/b": [.status(503), .status(200)]]),
        ("a refused connection retried", .get, ["/a": [.refused, .status(200)]]),
        ("refused until the budget runs out", .get, ["/a": [.refused]]),
        ("503 until the budget runs out", .get, ["/a": [.status(503)]]),
        ("a POST not retried, then a 303 to a GET that is", .post, ["/a": [.status(303, location: "/b")], "/b": [.status(502), .status(200)]]),
        ("a POST's 503 returned", .post, ["/a": [.status(503)]]),
        ("more hops than allowed", .get, ["/a": [.status(302, location: "/b")], "/b": [.status(302, location: "/c")], "/c": [.status(302, location: "/a")]]),
        ("another origin loses the credential", .get, ["/a": [.status(302, location: "https://elsewhere.example.net/b")]]),
    ]

    static func scenario(_ name: String) -> Int {
        scenarios.firstIndex { $0.name == name } ?? -1
    }

    /// Orders of the middlewares.
    enum Order {
        /// As the container builds clients, ahead of an observer and a step of their own.
        case redirectThenRetry
        /// Both right before the transport's observer.
        case redirectThenRetryAtTheEnd
        /// An observer in front of both.
        case behindAnObserver
        /// An observer between them.
        case anObserverBetween
    }

    func middlewares(_ order: Order, clock: ManualClock, trace: Trace) -> [any Middleware] {
        let policy = RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(400), totalBudget: .milliseconds(700), retryTransportErrors: true)
        let retry = RetryMiddleware(policy: policy, clock: clock, random: { 1 })
        let attempts = Attempts(trace: trace)
        let outer = Attempts(name: "outer ", trace: trace)
        switch order {
        case .redirectThenRetry: return [Self.redirect, retry, attempts, Self.step(trace), Attempts(name: "inner ", trace: trace)]
        case .redirectThenRetryAtTheEnd: return [Self.redirect, retry, attempts]
        case .behindAnObserver: return [outer, Self.redirect, retry, attempts]
        case .anObserverBetween: return [Self.redirect, outer, retry, attempts]
        }
    }

    func outcome(_ order: Order, _ scenario: Int) async -> Outcome {
        let (_, method, script) = Self.scenarios[scenario]
        let server = Server(script)
        let trace = Trace()
        let clock = ManualClock()
        let middlewares = middlewares(order, clock: clock, trace: trace)
        let result: String
        do {
            let request = try AuthRequest(
                method: method, url: URL(string: "https://api.example.com/a")!,
                headerFields: [.authorization: "Bearer secret-token"], body: method == .post ? Data("x".utf8) : Data()
            )
            let response = try await AuthClient(transport: server.transport, middlewares: middlewares).send(request)
            result = "answered \(response.status.code)"
        } catch let error as AuthError {
            result = "failed: \(error.code)"
        } catch {
            result = "failed: \(error)"
        }
        let waits = clock.sleeps.map { $0 / .milliseconds(1) }.map { Int64($0.rounded()) }
        return Outcome(sent: server.sent.withLock { $0 }, seen: trace.all, waits: waits, result: result)
    }

    /// The container's order and others, spelled out for some scripts.
    @Test func eachHopIsRetriedOnItsOwnAndTheObserversSeeEveryAttempt() async {
        let hopThenRetry = await outcome(.redirectThenRetryAtTheEnd, Self.scenario("a hop, then a retried 503"))
        #expect(hopThenRetry == Outcome(
            sent: ["GET api.example.com/a +auth", "GET api.example.com/b +auth", "GET api.example.com/b +auth"],
            seen: ["attempt /a", "got 302", "attempt /b", "got 503", "attempt /b", "got 200"],
            waits: [400],
            result: "answered 200"
        ))
        // Each hop's budget starts with its first attempt: the second wait fits only so.
        let twoWaits = await outcome(.redirectThenRetry, Self.scenario("a wait on each hop, each within its own budget"))
        #expect(twoWaits.waits == [400, 400])
        #expect(twoWaits.result == "answered 200")
        #expect(twoWaits.seen.filter { $0.hasPrefix("step") } == ["step /a", "step /a", "step /b", "step /b"])
        let outOfBudget = await outcome(.redirectThenRetry, Self.scenario("503 until the budget runs out"))
        #expect(outOfBudget.waits == [400])
        #expect(outOfBudget.result == "answered 503")
        // An observer before the loops sees the request once; one between them, each hop.
        let behind = await outcome(.behindAnObserver, Self.scenario("a hop, then a retried 503"))
        #expect(behind.seen.filter { $0.hasPrefix("outer") } == ["outer attempt /a", "outer got 200"])
        let between = await outcome(.anObserverBetween, Self.scenario("a hop, then a retried 503"))
        #expect(between.seen.filter { $0.hasPrefix("outer") } == ["outer attempt /a", "outer got 302", "outer attempt /b", "outer got 200"])
        let elsewhere = await outcome(.redirectThenRetry, Self.scenario("another origin loses the credential"))
        #expect(elsewhere.sent == ["GET api.example.com/a +auth", "GET elsewhere.example.net/b"])
        #expect(elsewhere.result == "answered 200")
        let postThenGet = await outcome(.redirectThenRetry, Self.scenario("a POST not retried, then a 303 to a GET that is"))
        #expect(postThenGet.sent == ["POST api.example.com/a +auth", "GET api.example.com/b +auth", "GET api.example.com/b +auth"])
        let tooMany = await outcome(.redirectThenRetry, Self.scenario("more hops than allowed"))
        #expect(tooMany.sent.count == 3)
        #expect(tooMany.result == "failed: \(AuthError.Code.redirect)")
        // A retry before the hop; refused connections retried within the budget; a POST never.
        let retryThenHop = await outcome(.redirectThenRetry, Self.scenario("retried, then a hop"))
        #expect(retryThenHop.sent == ["GET api.example.com/a +auth", "GET api.example.com/a +auth", "GET api.example.com/b +auth"])
        #expect(retryThenHop.waits == [400])
        #expect(retryThenHop.result == "answered 200")
        let refusedOnce = await outcome(.redirectThenRetry, Self.scenario("a refused connection retried"))
        #expect(refusedOnce.sent.count == 2)
        #expect(refusedOnce.result == "answered 200")
        let refused = await outcome(.redirectThenRetry, Self.scenario("refused until the budget runs out"))
        #expect(refused.sent.count == 2)
        #expect(refused.waits == [400])
        #expect(refused.result == "failed: \(AuthError.Code.transport)")
        let post = await outcome(.redirectThenRetry, Self.scenario("a POST's 503 returned"))
        #expect(post.sent == ["POST api.example.com/a +auth"])
        #expect(post.waits.isEmpty)
        #expect(post.result == "answered 503")
    }
}
