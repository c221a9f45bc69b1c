import AuthCore
import Foundation
import HTTPTypes
import Testing

/// The caches that know a request by its pseudo-header fields' or its header fields'
/// representation (`sameRepresentation(of:_:)`) rely on HTTPTypes holding each in one
/// copy-on-write storage: copies share it, a change makes a storage of its own. Should HTTPTypes
/// hold them otherwise, these fail before a cache could answer for the wrong request.
@Suite struct PseudoHeaderFieldsLayoutTests {
    @Test func theFieldsAreOneReference() {
        #expect(MemoryLayout<HTTPRequest.PseudoHeaderFields>.size == MemoryLayout<AnyObject>.size)
    }

    @Test func copiesShareTheRepresentationAndAChangeLeavesIt() {
        let head = HTTPRequest(method: .get, scheme: "https", authority: "api.example.com", path: "/v1/me")
        let copy = head
        #expect(sameRepresentation(of: head.pseudoHeaderFields, copy.pseudoHeaderFields))
        for change in [{ (h: inout HTTPRequest) in h.path = "/v1/you" }, { $0.authority = "evil.example.com" }, { $0.scheme = "http" }, { $0.method = .post }, { $0.path = "/v1/me" }] {
            var changed = head
            change(&changed)
            #expect(!sameRepresentation(of: head.pseudoHeaderFields, changed.pseudoHeaderFields))
        }
        // Equal fields made apart are two storages: the caches then compare their bytes.
        let twin = HTTPRequest(method: .get, scheme: "https", authority: "api.example.com", path: "/v1/me")
        #expect(twin.pseudoHeaderFields == head.pseudoHeaderFields)
        #expect(!sameRepresentation(of: head.pseudoHeaderFields, twin.pseudoHeaderFields))
    }

    @Test func headerFieldsAreOneReferenceThatCopiesShareAndAChangeLeaves() {
        #expect(MemoryLayout<HTTPFields>.size == MemoryLayout<AnyObject>.size)
        let fields: HTTPFields = [.authorization: "Bearer a", .accept: "application/json"]
        let copy = fields
        #expect(sameRepresentation(of: fields, copy))
        let changes: [(inout HTTPFields) -> Void] = [
            { $0[.authorization] = "Bearer b" }, { $0[.accept] = nil }, { $0.append(HTTPField(name: .cookie, value: "a=1")) },
            { $0[.authorization] = "Bearer a" }, { $0.removeAll() },
        ]
        for change in changes {
            var changed = fields
            change(&changed)
            #expect(!sameRepresentation(of: fields, changed))
        }
        let twin: HTTPFields = [.authorization: "Bearer a", .accept: "application/json"]
        #expect(twin == fields)
        #expect(!sameRepresentation(of: fields, twin))
    }

    /// A kept optional is compared without unwrapping it: it holds the same storage as the value
    /// it wraps, and none never matches.
    @Test func keptOptionalsCompareAsTheirValues() {
        let fields: HTTPFields = [.authorization: "Bearer a"]
        let head = HTTPRequest(method: .get, scheme: "https", authority: "api.example.com", path: "/v1/me")
        let keptFields: HTTPFields? = fields, keptTarget: HTTPRequest.PseudoHeaderFields? = head.pseudoHeaderFields
        #expect(sameRepresentation(of: keptFields, fields))
        #expect(sameRepresentation(of: keptTarget, head.pseudoHeaderFields))
        #expect(!sameRepresentation(of: nil as HTTPFields?, fields))
        #expect(!sameRepresentation(of: nil as HTTPFields?, HTTPFields()))
        #expect(!sameRepresentation(of: nil as HTTPRequest.PseudoHeaderFields?, head.pseudoHeaderFields))
        let twin: HTTPFields? = [.authorization: "Bearer a"]
        #expect(!sameRepresentation(of: twin, fields))
    }
}
