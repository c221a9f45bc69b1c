import AsyncHTTPClient
import AuthCore
import AuthHTTPClient
import Foundation
import HTTPTypes
import NIOCore
import Testing

@Suite struct HTTPClientTransportTests {
    @Test func methodHeadersAndBodyRoundTrip() async throws {
        try await EchoServer.withRunning { base in
            try await HTTPClientTransport.withTransport { transport in
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

    /// Paths reach the server byte for byte; one AsyncHTTPClient would replace with `/` (its
    /// escapes decode to bytes that are not UTF-8) is refused, never sent to another resource.
    @Test func pathsArriveAsTheyWereOrNotAtAll() async throws {
        try await EchoServer.withRunning { base in
            try await HTTPClientTransport.withTransport { transport in
                for path in ["/a%20b/%C3%A9/!$'()*,;:@=+/..x/%2F", "/a/./b/../c/", "/%7e?k=%FF&v=%e9"] {
                    let request = try AuthRequest(method: .get, url: try #require(URL(string: "\(base.absoluteString.hasSuffix("/") ? String(base.absoluteString.dropLast()) : base.absoluteString)\(path)")))
                    let echo = try JSONDecoder().decode(EchoServer.Echo.self, from: try await transport.send(request).body)
                    #expect(echo.path == path)
                }
                for path in ["/photos/a%FF.jpg", "/%C3", "/x/%e9?q=1"] {
                    let request = try AuthRequest(method: .get, url: try #require(URL(string: "\(base.absoluteString.hasSuffix("/") ? String(base.absoluteString.dropLast()) : base.absoluteString)\(path)")))
                    let error = await #expect(throws: AuthError.self) { try await transport.send(request) }
                    #expect(error?.code == .invalidRequest)
                    #expect(error?.message.contains("not UTF-8") == true)
                }
            }
        }
    }

    @Test func redirectsAreNotFollowedByTheTransport() async throws {
        try await EchoServer.withRunning { base in
            try await HTTPClientTransport.withTransport { transport in
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

    @Test func refusedConnectionIsATypedTransportError() async throws {
        // Bind a port, then close it, so nothing listens there.
        let port = try await EchoServer.withRunning { base in base.port ?? 0 }
        _ = try await HTTPClientTransport.withTransport { transport in
            await #expect { try await transport.send(AuthRequest(method: .get, url: URL(string: "http://127.0.0.1:\(port)/echo")!)) } throws: { error in
                guard let error = error as? AuthError else { return false }
                return error.code == .transport && error.message.contains("127.0.0.1") && error.message.contains("connection refused")
            }
        }
    }

    /// AsyncHTTPClient retried connection establishment under the retry middleware until its
    /// connect timeout (issue 18): the refusal must be reported on the first attempt, not after
    /// the 20 s connect timeout configured here. The bound separates "at once" from "at the
    /// timeout"; it is not a speed target.
    @Test func aRefusedConnectionIsReportedOnTheFirstAttempt() async throws {
        let port = try await EchoServer.withRunning { base in base.port ?? 0 }
        var configuration = HTTPClientTransport.defaultConfiguration
        configuration.timeout = .init(connect: .seconds(20), read: .seconds(20))
        configuration.connectionPool.retryConnectionEstablishment = true  // the transport turns it off
        let start = ContinuousClock.now
        _ = try await HTTPClientTransport.withTransport(configuration: configuration) { transport in
            await #expect(throws: AuthError.self) { try await transport.send(AuthRequest(method: .get, url: URL(string: "http://127.0.0.1:\(port)/")!)) }
        }
        #expect(ContinuousClock.now - start < .seconds(10))
    }
}
