import AsyncHTTPClient
import AuthCore
import HTTPTypes
import NIOCore
import NIOHTTP1

extension HTTPClientTransport {
    /// `request` as AsyncHTTPClient takes it, sent to ``/AuthCore/AuthRequest/urlForTransport()``.
    /// Internal, not private: tests compare what it builds with the request.
    /// - Throws: `AuthError` code `.invalidRequest` when the request's target is malformed, or its
    ///   path holds escapes of bytes that are not UTF-8 (see ``PathFidelity``).
    static func outgoing(_ request: AuthRequest) throws -> HTTPClientRequest {
        let url = try request.urlForTransport()
        guard PathFidelity.isSentUnchanged(request.head.path ?? "/") else {
            throw AuthError.invalidRequest(
                "the path holds percent-escapes of bytes that are not UTF-8 (such as %FF): AsyncHTTPClient would send / in its place, so the request is not sent"
            )
        }
        var outgoing = HTTPClientRequest(url: url)
        let method = request.head.method
        // GET, most requests' method and AsyncHTTPClient's default, compares as one word; any
        // other is spelled out for NIO (a comparison of strings per method it knows).
        let isGet = method == .get
        if !isGet { outgoing.method = HTTPMethod(rawValue: method.rawValue) }
        // AsyncHTTPClient may speak HTTP/1.1: one Cookie field (RFC 6265 §5.4).
        for field in request.headerFieldsForHTTP1 {
            outgoing.headers.add(name: field.name.rawName, value: field.value)
        }
        if !request.body.isEmpty || !isGet && (method == .post || method == .put || method == .patch) {
            outgoing.body = .bytes(ByteBuffer(bytes: request.body))
        }
        return outgoing
    }
}
