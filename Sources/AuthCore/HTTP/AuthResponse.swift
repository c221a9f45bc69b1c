public import Foundation
public import HTTPTypes

/// An HTTP response with its whole body.
public struct AuthResponse: Sendable, Equatable {
    /// Status and header fields.
    public var head: HTTPResponse
    /// The body bytes.
    public var body: Data

    /// Creates a response from its parts.
    public init(head: HTTPResponse, body: Data = Data()) {
        self.head = head
        self.body = body
    }

    /// Creates a response with a status, header fields and body.
    public init(status: HTTPResponse.Status, headerFields: HTTPFields = [:], body: Data = Data()) {
        self.head = HTTPResponse(status: status, headerFields: headerFields)
        self.body = body
    }

    /// The response status.
    public var status: HTTPResponse.Status { head.status }
}
