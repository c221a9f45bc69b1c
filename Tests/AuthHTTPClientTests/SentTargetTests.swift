import AuthCore
@testable import AuthHTTPClient
import Foundation
import HTTPTypes
import Synchronization
import Testing

/// The transport reuses the URL of the target it sent to last: whatever came before, each request
/// gets the URL (or the refusal) that checking it afresh gives.
@Suite struct SentTargetTests {
    /// The URL checking `request` afresh gives, or nil when it is refused.
    static func fresh(_ request: AuthRequest) -> String? {
        guard let url = try? request.urlForTransport(), PathFidelity.isSentUnchanged(request.head.path ?? "/") else { return nil }
        return url
    }

    @Test func eachRequestGetsTheURLItsTargetGives() async throws {
        let urls = [
            "https://example.com/a", "https://Example.com/a", "https://example.com:443/a", "http://127.0.0.1:8080/v1/me?x=1",
            "https://[::1]:8443/", "https://example.com/a%FF", "https://example.com/a%20b", "https://u@example.com/a", "ftp://example.com/a",
        ].compactMap(URL.init(string:))
        var requests = try urls.map { try AuthRequest(method: .get, url: $0) }
        // Parts that Swift's `==` takes as equal (canonically equivalent) but whose bytes differ:
        // the second of each pair is refused.
        #expect("/a;b" == "/a\u{037E}b" && "Kevin.example.com" == "\u{212A}evin.example.com")
        for (authority, path) in [("example.com", "/a;b"), ("example.com", "/a\u{037E}b"), ("Kevin.example.com", "/"), ("\u{212A}evin.example.com", "/")] {
            requests.append(AuthRequest(head: HTTPRequest(method: .get, scheme: "https", authority: authority, path: path)))
        }
        // Heads changed after they were made: another authority, path or scheme, or none.
        for request in requests.prefix(4) {
            var moved = request
            moved.head.authority = "other.example:8443"
            requests.append(moved)
            moved.head.path = "/elsewhere"
            requests.append(moved)
            moved.head.scheme = "wss"
            requests.append(moved)
            moved.head.scheme = nil
            requests.append(moved)
        }
        // Requests a client made from URLs, each three times: the second and third share the
        // first's head storage, by which the target knows them once it has kept it.
        let madeByAClient = try await Self.madeByAClient(from: urls.prefix(3).flatMap { [$0, $0, $0] })
        requests += madeByAClient
        // And such requests changed on their way (an API key put in the query): storage of their own.
        for request in madeByAClient.prefix(3) {
            var moved = request
            moved.head.path = "/elsewhere?key=1"
            requests.append(moved)
        }
        let target = SentTarget()
        var refused = 0
        // Every request after every other, each twice in a row.
        for first in requests {
            for second in requests {
                for request in [first, second, second] {
                    let expected = Self.fresh(request)
                    #expect((try? target.url(for: request)) == expected, "\(request.head)")
                    if expected == nil { refused += 1 }
                }
            }
        }
        #expect(refused > 0)
    }

    /// The requests an `AuthClient` sends for `send(.get, url)` with each of `urls`, in order.
    static func madeByAClient(from urls: [URL]) async throws -> [AuthRequest] {
        let sent = Mutex<[AuthRequest]>([])
        let client = AuthClient(transport: ClosureTransport { request in
            sent.withLock { $0.append(request) }
            return AuthResponse(status: .ok)
        })
        for url in urls { _ = try await client.send(.get, url) }
        return sent.withLock { $0 }
    }
}
