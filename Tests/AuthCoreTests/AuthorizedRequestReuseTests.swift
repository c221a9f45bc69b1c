@testable import AuthCore
import AuthTesting
import Foundation
import HTTPTypes
import Testing

/// A bearer token put on a client's request from its recent head (`send(.get, url)`) gives the
/// request it gave the last time the same request came: each authorized request must still be
/// exactly the request its parts and the token make, whatever came before (another URL, another
/// token, header fields, a body, a change made to an earlier one).
@Suite struct AuthorizedRequestReuseTests {
    @Test func eachAuthorizedRequestIsTheOneItsPartsMake() throws {
        let head = RecentRequestHead()
        let tokens = [BearerTokenSet(accessToken: "token-a"), BearerTokenSet(accessToken: "token-b"), BearerTokenSet(accessToken: "t", tokenType: "DPoP")]
        let urls = ["https://api.example.com/v1/me", "https://api.example.com/v1/me?x=1", "https://other.example.com/"].compactMap(URL.init(string:))
        let fields: [HTTPFields] = [[:], [:], [:], [.accept: "application/json"], [.authorization: "Basic old"]]
        var random = SeededRandom(seed: 11)
        var earlier: [AuthRequest] = []
        for round in 0..<600 {
            let url = urls.randomElement(using: &random)!, token = round % 9 < 6 ? tokens[0] : tokens.randomElement(using: &random)!
            let headerFields = fields.randomElement(using: &random)!
            let body = round % 11 == 0 ? Data("body".utf8) : Data()
            let request = try head.request(.get, url, headerFields: headerFields, body: body, options: RequestOptions())
            // As the authentication middleware does: the request it was given stays alive.
            var authorized = request
            token.authorize(&authorized)
            var wanted = try AuthRequest(method: .get, url: url, headerFields: headerFields, body: body)
            wanted.head.headerFields[.authorization] = (token.tokenType == "DPoP" ? "DPoP " : "Bearer ") + token.accessToken.reveal
            #expect(authorized == wanted)
            #expect(request == (try AuthRequest(method: .get, url: url, headerFields: headerFields, body: body)), "the request given was changed")
            // A later middleware's change to its copy stays in that copy.
            var changed = authorized
            changed.head.headerFields[.userAgent] = "changed \(round)"
            changed.head.path = "/changed"
            earlier.append(authorized)
        }
        // Every request kept from before still holds what it held.
        #expect(earlier.allSatisfy { $0.head.headerFields[.userAgent] == nil && $0.head.path != "/changed" })
    }

    @Test func theSameBareRequestAuthorizedAgainSharesOneStorage() throws {
        let head = RecentRequestHead()
        let token = BearerTokenSet(accessToken: "token-a")
        let url = try #require(URL(string: "https://api.example.com/v1/me"))
        var made: [AuthRequest] = []
        for _ in 0..<4 {
            let request = try head.request(.get, url, headerFields: HTTPFields(), body: Data(), options: RequestOptions())
            var authorized = request
            token.authorize(&authorized)
            made.append(authorized)
        }
        // The first request is made fresh, the next three from the kept bare request: the second
        // is noted, the third and fourth share what it made.
        #expect(made[2].storage === made[3].storage)
        #expect(made[1].storage !== made[0].storage)
        // Another token gives its own request.
        let request = try head.request(.get, url, headerFields: HTTPFields(), body: Data(), options: RequestOptions())
        var other = request
        BearerTokenSet(accessToken: "token-b").authorize(&other)
        #expect(other.head.headerFields[.authorization] == "Bearer token-b")
        #expect(made[3].head.headerFields[.authorization] == "Bearer token-a")
    }
}
