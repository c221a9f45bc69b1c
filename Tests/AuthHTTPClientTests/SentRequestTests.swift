import AsyncHTTPClient
import AuthCore
@testable import AuthHTTPClient
import Foundation
import HTTPTypes
import NIOCore
import Testing

/// The transport reuses AsyncHTTPClient's request it built last for a request that is the same
/// value by storage: whatever came before, each request is handed over as building it afresh
/// makes it (or refused as then), and one sent again and again is built only twice.
@Suite struct SentRequestTests {
    /// What the transport hands AsyncHTTPClient for `request`, built afresh; nil when refused.
    static func fresh(_ request: AuthRequest) -> HTTPClientRequest? {
        SentTargetTests.fresh(request).map { HTTPClientTransport.outgoing(request, url: $0) }
    }

    /// Whether AsyncHTTPClient would send the two requests alike: the same URL, method, header
    /// fields in order, and body (the bodies here are empty or absent, or a request is not kept).
    static func alike(_ a: HTTPClientRequest?, _ b: HTTPClientRequest?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        return a.url == b.url && a.method == b.method && a.headers.map { [$0.name, $0.value] } == b.headers.map { [$0.name, $0.value] } && (a.body == nil) == (b.body == nil)
    }

    @Test func eachRequestIsHandedOverAsBuildingItAfreshMakesIt() async throws {
        let urls = ["https://example.com/a", "http://127.0.0.1:8080/v1/me?x=1", "https://example.com/a%FF"].compactMap(URL.init(string:))
        // Requests a client made from URLs, with the header fields a request may carry: none, one field shared by every
        // request (a credential's), one set of fields shared, and two Cookie fields (joined).
        let shared: HTTPFields = [.authorization: "Bearer a"]
        let several: HTTPFields = [.accept: "application/json", .authorization: "Bearer b", .cookie: "a=1", .cookie: "b=2"]
        var requests: [AuthRequest] = []
        // Twice each: the second shares its head's storage with the client's next requests.
        for request in try await SentTargetTests.madeByAClient(from: urls.flatMap { [$0, $0] }) {
            requests.append(request)
            for fields in [shared, several] {
                var carrying = request
                carrying.head.headerFields = fields
                requests.append(carrying)
            }
            // Changed after they were made: a field added (fields of its own), a body, a method.
            var changed = request
            changed.head.headerFields = shared
            changed.head.headerFields[.accept] = "text/plain"
            requests.append(changed)
            changed.body = Data("{}".utf8)
            requests.append(changed)
            changed.body = Data()
            changed.head.method = .post
            requests.append(changed)
        }
        try await HTTPClientTransport.withTransport { transport in
            // Every request after every other, each three times in a row (kept by the third).
            for first in requests {
                for second in requests {
                    for request in [first, second, second, second] {
                        let sent = try? transport.prepared(request)
                        #expect(Self.alike(sent, Self.fresh(request)), "\(request.head)")
                    }
                }
            }
        }
    }

    @Test func aRequestSentAgainIsKeptFromItsSecondSending() async throws {
        let request = try await SentTargetTests.madeByAClient(from: [URL(string: "https://example.com/a")!])[0]
        var authorized = request
        authorized.head.headerFields = [.authorization: "Bearer a"]
        let sent = SentRequest()
        #expect(sent.kept(for: authorized) == nil)
        let outgoing = try #require(Self.fresh(authorized))
        sent.note(outgoing, for: authorized)
        #expect(sent.kept(for: authorized) == nil, "kept on its first sending")
        sent.note(outgoing, for: authorized)
        #expect(Self.alike(sent.kept(for: authorized)?.request, outgoing))
        // A copy shares the storages; equal fields in storage of their own are not taken for them.
        let copy = authorized
        #expect(Self.alike(sent.kept(for: copy)?.request, outgoing))
        var twin = request
        twin.head.headerFields = [.authorization: "Bearer a"]
        #expect(twin.head == authorized.head)
        #expect(sent.kept(for: twin) == nil)
        // Nor is a request with a body, whatever its storages.
        var withBody = authorized
        withBody.body = Data("x".utf8)
        #expect(sent.kept(for: withBody) == nil)
    }

    /// Requests whose fields are made anew each time, and dropped once sent, are built for what
    /// they hold: a freed storage that comes back at the same address with other fields is never
    /// taken for the kept one (the kept request holds its storages).
    @Test func fieldsMadeAnewAtAFreedAddressAreNotTakenForTheKeptOnes() async throws {
        let request = try await SentTargetTests.madeByAClient(from: [URL(string: "https://example.com/a")!])[0]
        try await HTTPClientTransport.withTransport { transport in
            for round in 0..<2_000 {
                var authorized = request
                authorized.head.headerFields = [.authorization: "Bearer \(round % 10)"]
                // Twice, so that it is kept; then dropped, and the next round's fields are allocated.
                for _ in 0..<2 {
                    let sent = try transport.prepared(authorized)
                    #expect(sent.headers.filter { $0.name.lowercased() == "authorization" }.map(\.value) == ["Bearer \(round % 10)"])
                }
            }
        }
    }

    /// Shutting the transport down drops the kept request and the credential in its fields.
    @Test func shutdownForgetsTheKeptRequest() async throws {
        let request = try await SentTargetTests.madeByAClient(from: [URL(string: "https://example.com/a")!])[0]
        var authorized = request
        authorized.head.headerFields = [.authorization: "Bearer a"]
        let transport = HTTPClientTransport()
        _ = try transport.prepared(authorized)
        _ = try transport.prepared(authorized)
        #expect(transport.sentRequest.kept(for: authorized) != nil)
        try await transport.shutdown()
        #expect(transport.sentRequest.kept(for: authorized) == nil)
    }
}
