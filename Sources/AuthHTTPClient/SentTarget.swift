import AuthCore

/// The URL the transport last sent a request to, with the scheme, authority and path it was made
/// from: a request to the same target, byte for byte (a client calling one endpoint again and
/// again), reuses it instead of checking and building it again (about 1,400 instructions a
/// request).
///
/// The URL is a function of those three parts alone (``/AuthCore/AuthRequest/urlForTransport()``
/// and ``PathFidelity``), so reusing it sends exactly what checking again would. Only a URL that
/// passed the checks is kept; a refused target is refused every time.
final class SentTarget: Sendable {
    private final class Entry: Sendable {
        let scheme: String?
        let authority: String?
        let path: String?
        let url: String

        init(scheme: String?, authority: String?, path: String?, url: String) {
            (self.scheme, self.authority, self.path, self.url) = (scheme, authority, path, url)
        }
    }

    private let last = LastEntry<Entry>()

    /// The URL AsyncHTTPClient is given for `request`.
    /// - Throws: `AuthError` code `.invalidRequest` when the request's target is malformed, or its
    ///   path holds escapes of bytes that are not UTF-8.
    func url(for request: AuthRequest) throws -> String {
        let head = request.head
        let (scheme, authority, path) = (head.scheme, head.authority, head.path)
        if let kept = last.value(where: { sameBytes($0.path, path) && sameBytes($0.authority, authority) && sameBytes($0.scheme, scheme) }) {
            return kept.url
        }
        let url = try request.urlForTransport()
        guard PathFidelity.isSentUnchanged(path ?? "/") else {
            throw AuthError.invalidRequest(
                "the path holds percent-escapes of bytes that are not UTF-8 (such as %FF): AsyncHTTPClient would send / in its place, so the request is not sent"
            )
        }
        last.keep(Entry(scheme: scheme, authority: authority, path: path, url: url))
        return url
    }
}
