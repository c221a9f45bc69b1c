import AuthCore
import AuthHTTPClient
import Foundation
import HTTPTypes
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
                return error.code == .transport && error.message.contains("127.0.0.1")
            }
        }
    }
}
