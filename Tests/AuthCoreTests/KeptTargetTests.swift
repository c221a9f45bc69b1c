import AuthCore
import Foundation
import HTTPTypes
import Synchronization
import Testing

/// The key by which the transport's last target and a scope's last answer know a request: which
/// requests it holds by storage, and which request's key may take its place.
@Suite struct KeptTargetTests {
    /// The requests a new client sends for `send(.get, url)`, `count` times.
    static func sent(by count: Int, to url: URL) async throws -> [AuthRequest] {
        let sent = Mutex<[AuthRequest]>([])
        let client = AuthClient(transport: ClosureTransport { request in
            sent.withLock { $0.append(request) }
            return AuthResponse(status: .ok)
        })
        for _ in 0..<count { _ = try await client.send(.get, url) }
        return sent.withLock { $0 }
    }

    let url = URL(string: "https://api.example.com/v1/me")!

    @Test func aClientsRequestsToOneURLAreHeldByTheKeyOfTheFirst() async throws {
        let requests = try await Self.sent(by: 3, to: url)
        let key = KeptTarget(of: requests[0])
        #expect(requests.allSatisfy { key.holds($0.head.pseudoHeaderFields) })
        // The first was built from the URL; the next ones reuse its head.
        #expect(!requests[0].isOnSharedHead && requests[1].isOnSharedHead && requests[2].isOnSharedHead)
        // A request built apart from the same URL is the same target in storage of its own.
        let apart = try AuthRequest(method: .get, url: url)
        #expect(!key.holds(apart.head.pseudoHeaderFields))
    }

    @Test func aSharedHeadTakesThePlaceOfAKeyNoClientShares() async throws {
        let shared = try await Self.sent(by: 2, to: url)[1]
        let apart = KeptTarget(of: try AuthRequest(method: .get, url: url))
        let replacement = try #require(apart.replacement(for: shared))
        #expect(replacement.isSharedHead && replacement.holds(shared.head.pseudoHeaderFields))
        // A request built apart never replaces: the next one would not share its storage.
        #expect(apart.replacement(for: try AuthRequest(method: .get, url: url)) == nil)
    }

    @Test func anotherClientsSharedHeadDoesNotTakeTurnsWithTheFirst() async throws {
        let first = try await Self.sent(by: 2, to: url)[1]
        let second = try await Self.sent(by: 2, to: url)[1]
        let key = KeptTarget(of: first)
        #expect(!key.holds(second.head.pseudoHeaderFields))
        #expect(key.replacement(for: second) == nil)
    }

    @Test func aSharedHeadChangedOnItsWayIsNoLongerOnIt() async throws {
        var changed = try await Self.sent(by: 2, to: url)[1]
        changed.head.path = "/v1/me?api_key=1"
        #expect(!changed.isOnSharedHead)
        let apart = KeptTarget(of: try AuthRequest(method: .get, url: url))
        #expect(apart.replacement(for: changed) == nil)
    }
}
