import AuthCore
import AuthTesting
import Foundation
import HTTPTypes
import Synchronization
import Testing

/// A client reuses the head of the request it last made from a URL while the URL and method stay
/// the same: each request it sends must still be exactly the one `AuthRequest(method:url:…)`
/// makes, whatever came before (another URL, method, header fields, a middleware's change).
@Suite struct RecentRequestHeadTests {
    /// Puts a field on every request, so that a change made on one request could leak into the next.
    struct Stamp: Middleware {
        nonisolated(nonsending) func intercept(_ request: AuthRequest, next: Next) async throws -> AuthResponse {
            var request = request
            request.head.headerFields.append(HTTPField(name: .userAgent, value: "stamp"))
            request.head.path = (request.head.path ?? "") + "&stamped"
            return try await next(request)
        }
    }

    @Test func eachRequestIsTheOneItsPartsMake() async throws {
        let sent = Mutex<[AuthRequest]>([])
        let client = AuthClient(transport: ClosureTransport { request in
            sent.withLock { $0.append(request) }
            return AuthResponse(status: .ok)
        })
        let stamped = AuthClient(transport: client.transport, middlewares: [Stamp()])
        let base = try #require(URL(string: "https://api.example.com/v1/"))
        let urls: [URL] = [
            "https://api.example.com/v1/me", "http://127.0.0.1:8080/v1/me?x=1", "https://user@example.com/a", "https://example.com",
            "https://example.com/a#frag", "https://[::1]:8443/", "HTTPS://Example.COM:443/a%20b", "/relative/only",
        ].compactMap { URL(string: $0) } + [URL(string: "me", relativeTo: base)!, URL(string: "https://api.example.com/v1/me")!]
        let methods: [HTTPRequest.Method] = [.get, .get, .post, .delete]
        let fields: [HTTPFields] = [[:], [:], [.accept: "application/json"]]
        var random = SeededRandom(seed: 7)
        var expected: [(request: AuthRequest, sourceURL: String?, stamped: Bool)] = []
        for round in 0..<400 {
            let url = urls.randomElement(using: &random)!, method = methods.randomElement(using: &random)!
            let headerFields = fields.randomElement(using: &random)!
            let body = round % 5 == 0 ? Data("body \(round)".utf8) : Data()
            // Options of each kind, so that a request with any is never the kept bare one.
            let options = [RequestOptions(), RequestOptions(timeout: .seconds(5)), RequestOptions(retryNonIdempotent: true),
                           RequestOptions(secretFields: SecretFields(headers: ["x-key"]))][round % 7 < 4 ? 0 : round % 7 - 3]
            let through = round % 3 == 0 ? stamped : client
            guard let fresh = try? AuthRequest(method: method, url: url, headerFields: headerFields, body: body, options: options) else {
                await #expect(throws: AuthError.self) { try await through.send(method, url, headerFields: headerFields, body: body, options: options) }
                continue
            }
            // Twice: the second request is made from the head the first one left.
            _ = try await through.send(method, url, headerFields: headerFields, body: body, options: options)
            _ = try await through.send(method, url, headerFields: headerFields, body: body, options: options)
            var wanted = fresh
            if through.middlewares.isEmpty == false {
                wanted.head.headerFields.append(HTTPField(name: .userAgent, value: "stamp"))
                wanted.head.path = (wanted.head.path ?? "") + "&stamped"
            }
            expected.append((wanted, fresh.sourceURL, !through.middlewares.isEmpty))
            expected.append((wanted, fresh.sourceURL, !through.middlewares.isEmpty))
        }
        let requests = sent.withLock { $0 }
        #expect(requests.count == expected.count)
        #expect(expected.count > 600)
        for (request, wanted) in zip(requests, expected) {
            #expect(request == wanted.request)
            // What the transport sends: the URL the request was made from while the head still
            // spells it, else one built from the head.
            #expect((try? request.urlForTransport()) == (try? wanted.request.urlForTransport()))
            if !wanted.stamped { #expect(request.sourceURL == wanted.sourceURL) }
        }
    }

    /// `json(_:_:_:)` builds its requests the same way, then asks for JSON.
    @Test func jsonRequestsAreTheOnesTheirPartsMake() async throws {
        let sent = Mutex<[AuthRequest]>([])
        let client = AuthClient(transport: ClosureTransport { request in
            sent.withLock { $0.append(request) }
            return AuthResponse(status: .ok, body: Data(#"{"ok":"yes"}"#.utf8))
        })
        let urls = try ["https://api.example.com/v1/me", "https://api.example.com/v1/other?x=1"].map { try #require(URL(string: $0)) }
        for url in urls + urls + urls.reversed() {
            #expect(try await client.json([String: String].self, .get, url) == ["ok": "yes"])
        }
        for (request, url) in zip(sent.withLock { $0 }, urls + urls + urls.reversed()) {
            var wanted = try AuthRequest(method: .get, url: url)
            wanted.head.headerFields[.accept] = "application/json"
            #expect(request == wanted)
            #expect(request.sourceURL == url.absoluteString)
        }
    }
}
