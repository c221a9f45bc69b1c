public import Foundation
public import HTTPTypes

/// An HTTP response with its whole body.
public struct AuthResponse: Sendable, Equatable {
    /// Status and header fields.
    public var head: HTTPResponse { didSet { status = head.status } }
    /// The body bytes.
    public var body: Data
    /// The response status. Kept beside `head` (whose `status` parses the `:status` field on
    /// every read) because several middlewares read it for every response.
    public private(set) var status: HTTPResponse.Status
    /// How a response cache in the pipeline answered, when one looked the request up; nil
    /// otherwise. Set by the cache, never parsed from the response.
    public var cacheOutcome: ResponseCacheOutcome?

    /// Creates a response from its parts.
    public init(head: HTTPResponse, body: Data = Data()) {
        self.head = head
        self.body = body
        status = head.status
    }

    /// Creates a response with a status, header fields and body.
    public init(status: HTTPResponse.Status, headerFields: HTTPFields = HTTPFields(), body: Data = Data()) {
        self.head = HTTPResponse(status: status, headerFields: headerFields)
        self.body = body
        self.status = status
    }
}
