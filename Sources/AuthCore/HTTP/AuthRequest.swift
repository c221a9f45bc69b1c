public import Foundation
public import HTTPTypes
import HTTPTypesFoundation

/// An HTTP request with its whole body, as it travels through the middleware pipeline.
///
/// A request can be sent again unchanged: a retry after a renewal, a redirect hop and a signer
/// all rely on that, so the body is held as `Data` rather than as a stream.
///
/// ```swift
/// var request = try AuthRequest(method: .get, url: URL(string: "https://api.example.com/me")!)
/// request.head.headerFields[.accept] = "application/json"
/// ```
public struct AuthRequest: Sendable, Equatable {
    /// The parts, in one copy-on-write box: a request is passed by value through every
    /// middleware, and copying one reference is much cheaper than copying the head's strings,
    /// fields and body one by one.
    @usableFromInline
    final class Storage: @unchecked Sendable {
        // Mutated only through `AuthRequest`'s accessors, after `isKnownUniquelyReferenced`: a
        // box is never reached from two places while one of them writes, so the dynamic
        // exclusivity check (an access-set insert on every read of every request) is left out.
        @usableFromInline @exclusivity(unchecked) var head: HTTPRequest
        @usableFromInline @exclusivity(unchecked) var body: Data
        @usableFromInline @exclusivity(unchecked) var options: RequestOptions
        /// The URL the request was made from, when it is exactly scheme, `://`, authority and target.
        let sourceURL: String?
        /// The pseudo-header fields of the client's recent head the request was made from, if any
        /// (see ``AuthRequest/isOnSharedHead``).
        let sharedTarget: HTTPRequest.PseudoHeaderFields?

        @usableFromInline
        init(head: HTTPRequest, body: Data, options: RequestOptions, sourceURL: String? = nil, sharedTarget: HTTPRequest.PseudoHeaderFields? = nil) {
            self.head = head
            self.body = body
            self.options = options
            self.sourceURL = sourceURL
            self.sharedTarget = sharedTarget
        }
    }

    @usableFromInline var storage: Storage

    @usableFromInline
    mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) {
            storage = Storage(head: storage.head, body: storage.body, options: storage.options, sourceURL: storage.sourceURL, sharedTarget: storage.sharedTarget)
        }
    }

    /// Method, scheme, authority, path and header fields.
    @inlinable
    public var head: HTTPRequest {
        _read { yield storage.head }
        _modify {
            makeUnique()
            yield &storage.head
        }
    }

    /// The body bytes; empty for requests without a body.
    @inlinable
    public var body: Data {
        _read { yield storage.body }
        _modify {
            makeUnique()
            yield &storage.body
        }
    }

    /// Per-request options that middlewares read (retry opt-in, timeout).
    @inlinable
    public var options: RequestOptions {
        _read { yield storage.options }
        _modify {
            makeUnique()
            yield &storage.options
        }
    }

    /// Whether two requests have the same head, body and options.
    public static func == (lhs: AuthRequest, rhs: AuthRequest) -> Bool {
        lhs.storage === rhs.storage || (lhs.head == rhs.head && lhs.body == rhs.body && lhs.options == rhs.options)
    }

    /// Creates a request from its parts.
    public init(head: HTTPRequest, body: Data = Data(), options: RequestOptions = .init()) {
        storage = Storage(head: head, body: body, options: options)
    }

    /// A request from its parts and the URL it was made from (see ``sourceURL``).
    init(head: HTTPRequest, body: Data, options: RequestOptions, sourceURL: String?, sharedTarget: HTTPRequest.PseudoHeaderFields? = nil) {
        storage = Storage(head: head, body: body, options: options, sourceURL: sourceURL, sharedTarget: sharedTarget)
    }

    /// Whether the head's pseudo-header fields are still those of the client's recent head it was
    /// made from (a request made by `send(_:_:…)` from the URL of the request before it), whose
    /// storage the client's next requests to the same URL share: a cache keyed by them may keep
    /// that storage to know those requests by it. False once a middleware changed the method,
    /// scheme, authority or path (an API key put in the query, say), which gives the request
    /// storage of its own. A hint only: it says nothing of the values.
    package var isOnSharedHead: Bool {
        guard let shared = storage.sharedTarget else { return false }
        return sameRepresentation(of: shared, head.pseudoHeaderFields)
    }

    /// Creates a request for an absolute URL.
    /// - Throws: `AuthError.invalidRequest` when the URL has no scheme or host.
    public init(
        method: HTTPRequest.Method,
        url: URL,
        headerFields: HTTPFields = HTTPFields(),
        body: Data = Data(),
        options: RequestOptions = .init()
    ) throws {
        guard let parts = URLRequestParts.read(url) else {
            throw AuthError.invalidRequest("the URL has no scheme or host")
        }
        let head = HTTPRequest(method: method, scheme: parts.scheme, authority: parts.authority, path: parts.target, headerFields: headerFields)
        storage = Storage(head: head, body: body, options: options, sourceURL: parts.whole)
    }

    /// The URL this request was made from, when it is exactly its scheme, `://`, authority and
    /// target: ``urlForTransport()`` returns it while the head still spells it.
    package var sourceURL: String? { storage.sourceURL }

    /// The absolute URL of the request, when its parts form one.
    public var url: URL? { head.url }

    /// The origin (scheme, host, port) the request goes to.
    public var origin: Origin? { Origin(head) }

    /// Names a header field of this request as a secret (see ``RequestOptions/secretFields``).
    /// Names in ``SecretFields/standard`` need no mark.
    public mutating func markSecret(header name: String) {
        guard !SecretFields.standard.containsHeader(name), !options.secretFields.containsHeader(name) else { return }
        options.secretFields.formUnion(SecretFields(headers: [name]))
    }

    /// Names a query item of this request as a secret (see ``RequestOptions/secretFields``).
    public mutating func markSecret(queryItem name: String) {
        guard !SecretFields.standard.containsQueryItem(name), !options.secretFields.containsQueryItem(name) else { return }
        options.secretFields.formUnion(SecretFields(queryItems: [name]))
    }
}
