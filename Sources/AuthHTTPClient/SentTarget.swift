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
/// The entry is known by a `KeptTarget`: a client's requests to one URL share their
/// pseudo-header fields' storage, and have the same three parts without reading them (three
/// getters and three string comparisons).
final class SentTarget: Sendable {
    private final class Entry: Sendable {
        let key: KeptTarget
        let scheme: String?
        let authority: String?
        let path: String?
        let url: String

        init(key: KeptTarget, url: String) {
            self.key = key
            (scheme, authority, path) = (key.fields.scheme?.value, key.fields.authority?.value, key.fields.path?.value)
            self.url = url
        }

        /// `kept` under `key`, whose three parts are the same bytes as its own.
        init(key: KeptTarget, sameAs kept: Entry) {
            self.key = key
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
            if kept.key.holds(target) { return kept.url }
            if sameBytes(kept.path, target.path?.value) && sameBytes(kept.authority, target.authority?.value) && sameBytes(kept.scheme, target.scheme?.value) {
                if let key = kept.key.replacement(for: request) { last.keep(Entry(key: key, sameAs: kept)) }
                return kept.url
            }
        }
        let url = try request.urlForTransport()
        guard PathFidelity.isSentUnchanged(target.path?.value ?? "/") else {
            throw AuthError.invalidRequest(
                "the path holds percent-escapes of bytes that are not UTF-8 (such as %FF): AsyncHTTPClient would send / in its place, so the request is not sent"
            )
        }
        last.keep(Entry(key: KeptTarget(of: request), url: url))
        return url
    }
}
