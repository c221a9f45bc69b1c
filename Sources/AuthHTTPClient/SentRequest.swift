import AsyncHTTPClient
import AuthCore
import HTTPTypes
import Synchronization

/// The request the transport last handed to AsyncHTTPClient, reused whole for the next request
/// that is the same value by storage: its pseudo-header fields (method, scheme, authority, path)
/// and its header fields in the very storage the kept ones are in, and no body. A client calling
/// one endpoint again and again sends such requests: each is made from the client's recent head
/// (`send(_:_:…)`), and its credential's field is shared storage too. Reusing the request skips
/// looking up the URL string (``SentTarget``, which keeps it), building AsyncHTTPClient's request
/// and adding its header fields one by one: about 1,500 instructions a request
/// (`Benchmarks/scripts/callgrind-e2e`).
///
/// Copy-on-write storage is not changed in place while two values share it, and the kept fields
/// hold theirs, so that it cannot be freed and come back at the same address with other values:
/// the same storage is the same values, and so the same request. A false answer says nothing:
/// equal fields in storage of their own are built again, as every request was before.
///
/// A request is kept the second time its two storages come in a row, not the first: requests
/// built afresh each time (new storage every time) then cost a comparison and a short lock, not
/// an allocation each.
///
/// What is kept holds the last bodiless request's header fields, a credential's among them, until
/// another request replaces it or the transport shuts down (``forget()``): no longer than the
/// request's own value would live in a caller that keeps its last request.
final class SentRequest: Sendable {
    /// AsyncHTTPClient's request, built once for a pair of storages.
    final class Built: Sendable {
        let request: HTTPClientRequest
        init(_ request: HTTPClientRequest) { self.request = request }
    }

    /// The storages last seen, and the request built for them once they came twice.
    private struct Seen {
        var target: HTTPRequest.PseudoHeaderFields?
        var fields: HTTPFields?
        var built: Built?

        /// Whether `request` is in the storages seen last (compared without unwrapping them).
        func holds(_ request: AuthRequest) -> Bool {
            sameRepresentation(of: target, request.head.pseudoHeaderFields)
                && sameRepresentation(of: fields, request.head.headerFields)
        }
    }

    private let seen = Mutex(Seen())

    /// The request kept for `request`, when `request` is the same value by storage: in its box,
    /// from which the transport hands it over without copying it out.
    func kept(for request: AuthRequest) -> Built? {
        guard request.body.isEmpty else { return nil }
        return seen.withLock { seen in seen.holds(request) ? seen.built : nil }
    }

    /// Notes that `outgoing` was built for `request`: kept when the request's storages are the
    /// ones seen last, else those storages are remembered in place of the last ones.
    func note(_ outgoing: HTTPClientRequest, for request: AuthRequest) {
        guard request.body.isEmpty else { return }
        let replaced = seen.withLock { seen -> Seen? in
            if seen.holds(request) {
                if seen.built == nil { seen.built = Built(outgoing) }
                return nil
            }
            defer { seen = Seen(target: request.head.pseudoHeaderFields, fields: request.head.headerFields, built: nil) }
            return seen
        }
        // What was replaced is released here, after the lock.
        _ = replaced
    }

    /// Drops what is kept: the transport calls it when it shuts down, so that no request's header
    /// fields outlive the transport's use.
    func forget() {
        let dropped = seen.withLock { seen -> Seen in
            defer { seen = Seen() }
            return seen
        }
        _ = dropped
    }
}
