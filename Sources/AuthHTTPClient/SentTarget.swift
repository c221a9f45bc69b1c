import AuthCore
import HTTPTypes

/// The URL the transport last sent a request to, with the scheme, authority and path it was made
/// from: a request to the same target, byte for byte (a client calling one endpoint again and
/// again), reuses it instead of checking and building it again (about 1,400 instructions a
/// request).
///
/// The URL is a function of those three parts alone (``/AuthCore/AuthRequest/urlForTransport()``
/// and ``PathFidelity``), so reusing it sends exactly what checking again would. Only a URL that
/// passed the checks is kept; a refused target is refused every time.
///
/// A request whose pseudo-header fields are the kept ones' representation (the same storage: a
/// client's requests to one URL share the head it built once) has the same three parts
/// without reading them (three getters and three string comparisons).
final class SentTarget: Sendable {
    private final class Entry: Sendable {
        let target: HTTPRequest.PseudoHeaderFields
        /// Whether `target` is a client's shared head (`AuthRequest.isOnSharedHead`).
        let isSharedHead: Bool
        let scheme: String?
        let authority: String?
        let path: String?
        let url: String

        init(target: HTTPRequest.PseudoHeaderFields, isSharedHead: Bool, url: String) {
            (self.target, self.isSharedHead) = (target, isSharedHead)
            (scheme, authority, path) = (target.scheme?.value, target.authority?.value, target.path?.value)
            self.url = url
        }

        /// `kept` for a client's shared head `target`, whose three parts are the same bytes as its own.
        init(sharedHead target: HTTPRequest.PseudoHeaderFields, sameAs kept: Entry) {
            (self.target, isSharedHead) = (target, true)
            (scheme, authority, path, url) = (kept.scheme, kept.authority, kept.path, kept.url)
        }
    }

    private let last = LastEntry<Entry>()

    /// The URL AsyncHTTPClient is given for `request`.
    /// - Throws: `AuthError` code `.invalidRequest` when the request's target is malformed, or its
    ///   path holds escapes of bytes that are not UTF-8.
    func url(for request: AuthRequest) throws -> String {
        let target = request.head.pseudoHeaderFields
        if let kept = last.kept {
            if sameRepresentation(of: kept.target, target) { return kept.url }
            if sameBytes(kept.path, target.path?.value) && sameBytes(kept.authority, target.authority?.value) && sameBytes(kept.scheme, target.scheme?.value) {
                // The same target in storage of its own. When that is the storage the client's
                // next requests share, it takes the place of one no client shares (never another
                // client's, so that two clients calling one URL do not take turns).
                if !kept.isSharedHead, request.isOnSharedHead { last.keep(Entry(sharedHead: target, sameAs: kept)) }
                return kept.url
            }
        }
        let url = try request.urlForTransport()
        guard PathFidelity.isSentUnchanged(target.path?.value ?? "/") else {
            throw AuthError.invalidRequest(
                "the path holds percent-escapes of bytes that are not UTF-8 (such as %FF): AsyncHTTPClient would send / in its place, so the request is not sent"
            )
        }
        last.keep(Entry(target: target, isSharedHead: request.isOnSharedHead, url: url))
        return url
    }
}
