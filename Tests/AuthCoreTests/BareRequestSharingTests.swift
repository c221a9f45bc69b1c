@testable import AuthCore
import AuthTesting
import Foundation
import HTTPTypes
import Synchronization
import Testing

/// A client's bare request from a URL (`send(.get, url)`: no header fields, no body, default
/// options) is the kept request itself, one storage shared by every such request: a change made
/// on one (by a middleware, by the caller) must leave every other as it was, and a request with
/// any option set must never be taken for a bare one.
@Suite struct BareRequestSharingTests {
    @Test func bareRequestsShareOneStorageAndAChangeToOneLeavesTheOthers() async throws {
        let sent = Mutex<[AuthRequest]>([])
        let client = AuthClient(transport: ClosureTransport { request in
            sent.withLock { $0.append(request) }
            return AuthResponse(status: .ok)
        })
        let url = try #require(URL(string: "https://api.example.com/v1/me"))
        for _ in 0..<3 { _ = try await client.send(.get, url) }
        let requests = sent.withLock { $0 }
        #expect(requests.count == 3)
        // The second and third are made from the kept head: one storage.
        #expect(requests[1].storage === requests[2].storage)
        var changed = requests[1]
        changed.head.headerFields[.authorization] = "Bearer changed"
        changed.head.path = "/v1/other"
        changed.body = Data("x".utf8)
        changed.options.timeout = .seconds(1)
        #expect(changed.storage !== requests[2].storage)
        let fresh = try AuthRequest(method: .get, url: url)
        for request in requests { #expect(request == fresh) }
        // The client's next bare request is still the one its parts make.
        _ = try await client.send(.get, url)
        #expect(sent.withLock { $0.last } == fresh)
        #expect(sent.withLock { $0.last?.options } == RequestOptions())
    }

    @Test func defaultOptionsAreExactlyTheOnesInitMakes() {
        #expect(RequestOptions().isDefault)
        var options: [RequestOptions] = [RequestOptions(retryNonIdempotent: true), RequestOptions(timeout: .zero),
                                         RequestOptions(secretFields: SecretFields(headers: ["x-key"])),
                                         RequestOptions(secretFields: SecretFields(queryItems: ["key"]))]
        var downgraded = RequestOptions()
        downgraded.downgradedByRedirect = true
        options.append(downgraded)
        for option in options {
            #expect(!option.isDefault, "\(option)")
            #expect(option != RequestOptions())
        }
        // `isDefault` reads each stored field: a field added to the options must be added there
        // (and here), or requests with it set would be taken for the shared bare request.
        #expect(Mirror(reflecting: RequestOptions()).children.count == 4)
    }
}
