import AsyncHTTPClient
import AuthCore
import HTTPTypes
import NIOCore
import NIOHTTP1

extension HTTPClientTransport {
    /// `request` as AsyncHTTPClient takes it: the one built for the same request before (see
    /// ``SentRequest``), else built now: what `send` hands over. Internal, not private: tests
    /// compare it with a request built afresh.
    func prepared(_ request: AuthRequest) throws -> HTTPClientRequest {
        try sentRequest.kept(for: request)?.request ?? fresh(request)
    }

    /// `request` built now as AsyncHTTPClient takes it, and noted (``SentRequest``) to be kept
    /// when it comes again. Not inlined, like `outgoing(_:url:)`.
    @inline(never)
    func fresh(_ request: AuthRequest) throws -> HTTPClientRequest {
        let outgoing = try Self.outgoing(request, url: sentTarget.url(for: request))
        sentRequest.note(outgoing, for: request)
        return outgoing
    }

    /// `request` as AsyncHTTPClient takes it, sent to `url` (see ``SentTarget``). Not inlined:
    /// `send`'s async frame would hold its temporaries, and callgrind counts it whole
    /// (`Benchmarks/scripts/callgrind-e2e`).
    @inline(never)
    static func outgoing(_ request: AuthRequest, url: String) -> HTTPClientRequest {
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
