import AuthCore
import AuthTesting
import Foundation
import HTTPTypes
import Synchronization
import Testing

/// A redirect or retry middleware at the front of a link is not called: the link runs its loop
/// itself. What goes over the wire, what observers see and what the caller gets must be what the
/// middlewares' own `intercept` gives in the same place.
@Suite struct ResendingLoopsTests {
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

    /// Records every attempt an observer inside the loops sees.
    struct Attempts: ObservingMiddleware {
        let trace: Trace
        func willSend(_ request: AuthRequest) { trace.record("attempt \(request.head.path ?? "")") }
        func didReceive(_ response: AuthResponse, for request: AuthRequest) { trace.record("got \(response.status.code)") }
        func didFail(_ error: any Error, for request: AuthRequest) { trace.record("failed") }
    }

    /// What a caller and a server observe of one request.
    struct Outcome: Equatable, CustomStringConvertible {
        let sent: [String]
        let seen: [String]
        let result: String
        var description: String { "sent \(sent), seen \(seen), \(result)" }
    }

    static let redirect = RedirectMiddleware(maxHops: 2)

    /// The scripts: each names the request and what the paths answer.
    static let scenarios: [(name: String, method: HTTPRequest.Method, script: [String: [Server.Answer]])] = [
        ("a hop, then a retried 503", .get, ["/a": [.status(302, location: "/b")], "/b": [.status(503), .status(200)]]),
        ("retried, then a hop", .get, ["/a": [.status(503), .status(307, location: "/b")]]),
        ("a refused connection retried", .get, ["/a": [.refused, .status(200)]]),
        ("refused until the attempts run out", .get, ["/a": [.refused]]),
        ("503 until the attempts run out", .get, ["/a": [.status(503)]]),
        ("a POST not retried, then a 303 to a GET that is", .post, ["/a": [.status(303, location: "/b")], "/b": [.status(502), .status(200)]]),
        ("a POST's 503 returned", .post, ["/a": [.status(503)]]),
        ("more hops than allowed", .get, ["/a": [.status(302, location: "/b")], "/b": [.status(302, location: "/c")], "/c": [.status(302, location: "/a")]]),
        ("another origin loses the credential", .get, ["/a": [.status(302, location: "https://elsewhere.example.net/b")]]),
    ]

    /// The middlewares' orders: folded in the pipeline, or not.
    enum Order: String, CaseIterable {
        /// As the container builds clients: both folded into the first link.
        case redirectThenRetry
        /// Retry outside redirect: only retry folds; redirect is a step.
        case retryThenRedirect
        case redirectAlone
        case retryAlone
        /// An observer in front: neither folds into the first link; retry folds into redirect's.
        case behindAnObserver
    }

    func middlewares(_ order: Order, clock: ManualClock, trace: Trace) -> [any Middleware] {
        let retry = RetryMiddleware(policy: RetryPolicy(maxAttempts: 3, retryTransportErrors: true), clock: clock, random: { 0 })
        let attempts = Attempts(trace: trace)
        switch order {
        case .redirectThenRetry: return [Self.redirect, retry, attempts]
        case .retryThenRedirect: return [retry, Self.redirect, attempts]
        case .redirectAlone: return [Self.redirect, attempts]
        case .retryAlone: return [retry, attempts]
        case .behindAnObserver: return [Attempts(trace: Trace()), Self.redirect, retry, attempts]
        }
    }

    /// The same middlewares, each run by its own `intercept` around a closure for the rest.
    static func byHand(_ middlewares: [any Middleware], transport: any Transport, _ request: AuthRequest) async throws -> AuthResponse {
        guard let first = middlewares.first else { return try await transport.send(request) }
        return try await first.intercept(request) { try await byHand(Array(middlewares.dropFirst()), transport: transport, $0) }
    }

    func outcome(_ order: Order, _ scenario: Int, pipeline: Bool) async -> Outcome {
        let (_, method, script) = Self.scenarios[scenario]
        let server = Server(script)
        let trace = Trace()
        let middlewares = middlewares(order, clock: ManualClock(), trace: trace)
        let result: String
        do {
            let request = try AuthRequest(
                method: method, url: URL(string: "https://api.example.com/a")!,
                headerFields: [.authorization: "Bearer secret-token"], body: method == .post ? Data("x".utf8) : Data()
            )
            let response = pipeline
                ? try await AuthClient(transport: server.transport, middlewares: middlewares).send(request)
                : try await Self.byHand(middlewares, transport: server.transport, request)
            result = "answered \(response.status.code)"
        } catch let error as AuthError {
            result = "failed: \(error.code)"
        } catch {
            result = "failed: \(error)"
        }
        return Outcome(sent: server.sent.withLock { $0 }, seen: trace.all, result: result)
    }

    @Test(arguments: Order.allCases, 0..<scenarios.count)
    func thePipelineRunsTheLoopsAsTheirOwnInterceptDoes(_ order: Order, _ scenario: Int) async {
        let folded = await outcome(order, scenario, pipeline: true)
        let byHand = await outcome(order, scenario, pipeline: false)
        #expect(folded == byHand, "\(Self.scenarios[scenario].name), \(order)")
    }

    /// The comparison above holds only if the loops do their work: the container's order, spelled
    /// out for two scripts.
    @Test func eachHopIsRetriedOnItsOwnAndTheObserversSeeEveryAttempt() async {
        let hopThenRetry = await outcome(.redirectThenRetry, 0, pipeline: true)
        #expect(hopThenRetry == Outcome(
            sent: ["GET api.example.com/a +auth", "GET api.example.com/b +auth", "GET api.example.com/b +auth"],
            seen: ["attempt /a", "got 302", "attempt /b", "got 503", "attempt /b", "got 200"],
            result: "answered 200"
        ))
        let elsewhere = await outcome(.redirectThenRetry, 8, pipeline: true)
        #expect(elsewhere.sent == ["GET api.example.com/a +auth", "GET elsewhere.example.net/b"])
        #expect(elsewhere.result == "answered 200")
        let postThenGet = await outcome(.redirectThenRetry, 5, pipeline: true)
        #expect(postThenGet.sent == ["POST api.example.com/a +auth", "GET api.example.com/b +auth", "GET api.example.com/b +auth"])
        let tooMany = await outcome(.redirectThenRetry, 7, pipeline: true)
        #expect(tooMany.sent.count == 3)
        #expect(tooMany.result == "failed: \(AuthError.Code.redirect)")
    }
}
