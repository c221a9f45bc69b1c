package import HTTPTypes

/// What a cache keyed by a request's target (an answer for its scheme, authority and path) keeps
/// to know the next requests by: their pseudo-header fields' storage, which a client's requests
/// to one URL share (the head it built once), and whether that is such a shared head.
///
/// A request whose fields are this storage has the same target without its strings being read
/// (`holds`). One with the same bytes in storage of its own gets the cached answer after a byte
/// comparison; when it is on its client's shared head, its key takes the place of one no client
/// shares (`replacement`), never of another client's, so that two clients of one URL do not take
/// turns allocating a new entry on every request.
package struct KeptTarget: Sendable {
    /// The fields, kept: their storage cannot be freed and come back with other fields.
    package let fields: HTTPRequest.PseudoHeaderFields
    /// Whether `fields` are a client's shared head (`AuthRequest.isOnSharedHead`).
    package let isSharedHead: Bool

    /// The key of `request`'s target.
    package init(of request: AuthRequest) {
        fields = request.head.pseudoHeaderFields
        isSharedHead = request.isOnSharedHead
    }

    /// Whether `fields` are the kept ones, by storage.
    package func holds(_ fields: HTTPRequest.PseudoHeaderFields) -> Bool {
        sameRepresentation(of: self.fields, fields)
    }

    /// For `request`, whose target is the same bytes in other storage: the key to keep in this
    /// one's place, or nil to keep this one.
    package func replacement(for request: AuthRequest) -> KeptTarget? {
        guard !isSharedHead, request.isOnSharedHead else { return nil }
        return KeptTarget(of: request)
    }
}
