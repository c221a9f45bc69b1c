// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AsyncHTTPClient
import AuthCore
import AuthHTTPClient
import Foundation
import HTTPTypes
import NIOCore
import Testing

/// What every transport does, against a real HTTP server: each test runs for AsyncHTTPClient's
/// transport and for URLSession's.
@Suite struct HTTPClientTransportTests {
    @Test(arguments: TransportKind.allCases)
    func methodHeadersAndBodyRoundTrip(kind: TransportKind) async throws {
        try await EchoServer.withRunning { base in
            try await kind.withTransport { transport in
                for method in [HTTPRequest.Method.get, .post, .put, .delete, .patch] {
                    let body = method == .get || method == .delete ? Data() : Data("payload é \(method.rawValue)".utf8)
                    var request = try AuthRequest(method: method, url: base.appending(path: "echo").appending(queryItems: [URLQueryItem(name: "q", value: "a b")]), body: body)
                    request.head.headerFields[HTTPField.Name("X-Custom")!] = "value-\(method.rawValue)"
                    let response = try await transport.send(request)
                    #expect(response.status == .ok)
                    #expect(response.head.headerFields[HTTPField.Name("X-Reply")!] == "yes")
                    let echo = try JSONDecoder().decode(EchoServer.Echo.self, from: response.body)
                    #expect(echo.method == method.rawValue)
                    #expect(echo.path == "/echo?q=a%20b")
                    #expect(echo.headers["x-custom"] == "value-\(method.rawValue)")
                    #expect(echo.body == String(decoding: body, as: UTF8.self))
                }
            }
        }
    }

    /// Paths reach the server byte for byte, or (a transport that cannot send one, as
    /// AsyncHTTPClient cannot send escapes of bytes that are not UTF-8) are refused: never sent
    /// to another resource.
    @Test(arguments: TransportKind.allCases)
    func pathsArriveAsTheyWereOrNotAtAll(kind: TransportKind) async throws {
        try await EchoServer.withRunning { base in
            try await kind.withTransport { transport in
                let root = base.absoluteString.hasSuffix("/") ? String(base.absoluteString.dropLast()) : base.absoluteString
                // Sent exactly by both.
                for path in ["/a%20b/%C3%A9/!$'()*,;:@=+/..x/%2F", "/%7e?k=%FF&v=%e9"] {
                    let request = try AuthRequest(method: .get, url: try #require(URL(string: root + path)))
                    let echo = try JSONDecoder().decode(EchoServer.Echo.self, from: try await transport.send(request).body)
                    #expect(echo.path == path)
                }
                // Sent exactly, or refused (AsyncHTTPClient cannot send escapes of bytes that are
                // not UTF-8; URLSession removes dot segments): never sent to another resource.
                for path in ["/a/./b/../c/", "/photos/a%FF.jpg", "/%C3", "/x/%e9?q=1"] {
                    let request = try AuthRequest(method: .get, url: try #require(URL(string: root + path)))
                    do {
                        let echo = try JSONDecoder().decode(EchoServer.Echo.self, from: try await transport.send(request).body)
                        #expect(echo.path == path, "\(kind) sent \(path) as \(echo.path)")
                    } catch let error as AuthError {
                        #expect(error.code == .invalidRequest, "\(kind): \(path)")
                    }
                }
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func redirectsAreNotFollowedByTheTransport(kind: TransportKind) async throws {
        try await EchoServer.withRunning { base in
            try await kind.withTransport { transport in
                let response = try await transport.send(AuthRequest(method: .get, url: base.appending(path: "redirect")))
                #expect(response.status == .found)
                #expect(response.head.headerFields[.location] == "/echo")
                // The redirect middleware follows it.
                let client = AuthClient(transport: transport, middlewares: [RedirectMiddleware()])
                let followed = try await client.send(.get, base.appending(path: "redirect"))
                #expect(followed.status == .ok)
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func refusedConnectionIsATypedTransportError(kind: TransportKind) async throws {
        // A port held bound where nothing listens (a server's port closed again could be taken
        // by a test running meanwhile).
        try await withClosedPort { port in
            _ = try await kind.withTransport { transport in
                await #expect { try await transport.send(AuthRequest(method: .get, url: URL(string: "http://127.0.0.1:\(port)/echo")!)) } throws: { error in
                    guard let error = error as? AuthError else { return false }
                    return error.code == .transport && error.message.contains("127.0.0.1") && error.message.contains("connection refused")
                }
            }
        }
    }

    /// A failed request's error, as printed or logged (`LoggingMiddleware` logs `"\(error)"`),
    /// never repeats its URL, whose query may hold a key: URLSession's `URLError` carries the
    /// failing URL in its user information, and the transport's error kept it as its cause.
    @Test(arguments: TransportKind.allCases)
    func aFailedRequestsErrorDoesNotRepeatItsQuery(kind: TransportKind) async throws {
        try await withClosedPort { port in
            _ = try await kind.withTransport { transport in
                await #expect { try await transport.send(AuthRequest(method: .get, url: URL(string: "http://127.0.0.1:\(port)/echo?api_key=k3y-s3cret")!)) } throws: { error in
                    guard let error = error as? AuthError, error.code == .transport else { return false }
                    let shown = ["\(error)", String(reflecting: error), error.underlying.map { "\($0)" } ?? ""]
                    return !shown.contains { $0.contains("k3y-s3cret") }
                }
            }
        }
    }

    /// AsyncHTTPClient retried connection establishment under the retry middleware until its
    /// connect timeout (issue 18): the refusal must be reported on the first attempt, not after
    /// the five-minute connect timeout configured here. The bound separates "at once" from "at
    /// the timeout", with room for a loaded machine; it is not a speed target.
    @Test func aRefusedConnectionIsReportedOnTheFirstAttempt() async throws {
        let port = try await EchoServer.withRunning { base in base.port ?? 0 }
        var configuration = HTTPClientTransport.defaultConfiguration
        configuration.timeout = .init(connect: .seconds(300), read: .seconds(20))
        configuration.connectionPool.retryConnectionEstablishment = true  // the transport turns it off
        let start = ContinuousClock.now
        _ = try await HTTPClientTransport.withTransport(configuration: configuration) { transport in
            await #expect(throws: AuthError.self) { try await transport.send(AuthRequest(method: .get, url: URL(string: "http://127.0.0.1:\(port)/")!)) }
        }
        #expect(ContinuousClock.now - start < .seconds(120))
    }

    /// A response slower than the transport's timeout is a typed `.timeout` or `.transport` error.
    @Test(arguments: TransportKind.allCases)
    func aSlowResponseTimesOutAsATypedError(kind: TransportKind) async throws {
        _ = try await EchoServer.withRunning { base in
            try await kind.withTransport(timeout: .seconds(1)) { transport in
                await #expect { try await transport.send(AuthRequest(method: .get, url: base.appending(path: "slow"))) } throws: { error in
                    guard let error = error as? AuthError else { return false }
                    return error.code == .timeout || error.code == .transport
                }
            }
        }
    }

    /// A response's head must come within the transport's `responseHeadTimeout`, or within the
    /// request's own `options.timeout`, which replaces it, shorter or longer: past that the
    /// request ends with `.timeout`, naming the limit, not with the server's answer (ten minutes).
    @Test func theResponseHeadMustComeWithinTheTimeout() async throws {
        try await EchoServer.withRunning { base in
            let slow = try AuthRequest(method: .get, url: base.appending(path: "slow"))
            let isTimeout = { (limit: String) in
                { (error: any Error) in (error as? AuthError)?.code == .timeout && (error as? AuthError)?.message.contains(limit) == true }
            }
            try await HTTPClientTransport.withTransport(responseHeadTimeout: .milliseconds(300)) { transport in
                #expect(transport.responseHeadTimeout == .milliseconds(300))
                await #expect(performing: { try await transport.send(slow) }, throws: isTimeout("0.3 seconds"))
                // A request's own, longer limit replaces the transport's.
                let late = try AuthRequest(method: .get, url: base.appending(path: "slow").appending(queryItems: [URLQueryItem(name: "ms", value: "800")]), options: RequestOptions(timeout: .seconds(30)))
                let answer = try await transport.send(late)
                #expect(answer.status == .ok)
            }
            try await HTTPClientTransport.withTransport { transport in
                #expect(transport.responseHeadTimeout == .seconds(30))
                var request = slow
                request.options.timeout = .milliseconds(250)
                await #expect(performing: { try await transport.send(request) }, throws: isTimeout("0.25 seconds"))
            }
        }
    }

    /// The timeout middleware's limit reaches the transport: a limit longer than the transport's
    /// own wait for a response's head is not cut short by it.
    @Test func theTimeoutMiddlewaresLimitReplacesTheTransports() async throws {
        try await EchoServer.withRunning { base in
            try await HTTPClientTransport.withTransport(responseHeadTimeout: .milliseconds(300)) { transport in
                let client = AuthClient(transport: transport, middlewares: [TimeoutMiddleware(timeout: .seconds(30))])
                let response = try await client.send(.get, base.appending(path: "slow").appending(queryItems: [URLQueryItem(name: "ms", value: "800")]))
                #expect(response.status == .ok)
            }
        }
    }

    /// Cancelling the task cancels the request: it ends with `CancellationError`, not with the
    /// server's answer.
    @Test(arguments: TransportKind.allCases)
    func cancellingTheTaskCancelsTheRequest(kind: TransportKind) async throws {
        try await EchoServer.withRunning { base in
            try await kind.withTransport { transport in
                let request = Task { try await transport.send(AuthRequest(method: .get, url: base.appending(path: "slow"))) }
                try await Task.sleep(for: .milliseconds(200))
                request.cancel()
                let result = await request.result
                #expect(throws: CancellationError.self) { try result.get() }
            }
        }
    }
}
