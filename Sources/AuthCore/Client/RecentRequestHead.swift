public import Foundation
public import HTTPTypes

/// The head of the request a client last made from a URL, reused while requests are made from
/// the same URL string (byte for byte) and method: a client that sends `send(.get, url)` in a
/// loop parses the URL and has HTTPTypes validate its parts once, not on every request (about
/// 3,000 instructions of the 3,700 a request from a URL costs); each request still compares the
/// URL's string.
///
/// The head is a value: each request is a value of its own (copy on write), with its own header
/// fields, body and options, exactly the request ``AuthRequest/init(method:url:headerFields:body:options:)``
/// makes (which reads nothing of the URL but its string). A request with none of those (no
/// header fields, no body, default options: `send(.get, url)`) is the kept request itself, whose
/// storage every such request shares until a middleware changes its copy (copy on write): no
/// allocation for it (about 350 instructions a request).
@usableFromInline
final class RecentRequestHead: Sendable {
    private final class Entry: Sendable {
        /// The URL's string, which the head was read from.
        let url: String
        /// The head without header fields.
        let head: HTTPRequest
        /// The head's method, kept apart: HTTPTypes' getter builds it from the pseudo-header
        /// field on every read.
        let method: HTTPRequest.Method
        let sourceURL: String?
        /// The request with no header fields, no body and default options.
        let bare: AuthRequest

        init(url: String, head: HTTPRequest, sourceURL: String?) {
            (self.url, self.head, self.method, self.sourceURL) = (url, head, head.method, sourceURL)
            bare = AuthRequest(head: head, body: Data(), options: RequestOptions(), sourceURL: sourceURL, sharedTarget: head.pseudoHeaderFields)
        }
    }

    private let last = LastEntry<Entry>()

    /// The request ``AuthRequest/init(method:url:headerFields:body:options:)`` makes.
    /// - Throws: What that initializer throws.
    @usableFromInline
    func request(_ method: HTTPRequest.Method, _ url: URL, headerFields: HTTPFields, body: Data, options: RequestOptions) throws -> AuthRequest {
        let text = url.absoluteString
        if let recent = last.value(where: { sameBytes($0.url, text) && $0.method == method }) {
            if headerFields.isEmpty && body.isEmpty && options.isDefault { return recent.bare }
            var head = recent.head
            if !headerFields.isEmpty { head.headerFields = headerFields }
            return AuthRequest(head: head, body: body, options: options, sourceURL: recent.sourceURL, sharedTarget: recent.head.pseudoHeaderFields)
        }
        let request = try AuthRequest(method: method, url: url, headerFields: headerFields, body: body, options: options)
        var head = request.head
        head.headerFields = HTTPFields()
        last.keep(Entry(url: text, head: head, sourceURL: request.sourceURL))
        return request
    }
}
