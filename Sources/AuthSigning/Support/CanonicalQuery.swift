/// The canonical form of a URL query shared by SigV4 and the HMAC scheme.
///
/// The query (the part of the path after the first `?`) is split on `&`, each pair on its first
/// `=` (a pair without `=` has an empty value, empty pairs are dropped). Each name and value is
/// percent-decoded and then percent-encoded again with RFC 3986 rules (only `A-Z a-z 0-9 - . _ ~`
/// stay as they are, hex digits upper case; `+` is a literal plus and becomes `%2B`). The pairs
/// are sorted by encoded name, then by encoded value (byte order) and joined as
/// `name=value&name=value`.
enum CanonicalQuery {
    /// The decoded `(name, value)` pairs of `query`, in order.
    static func pairs(_ query: some StringProtocol) -> [(name: String, value: String)] {
        query.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            if let equals = pair.firstIndex(of: "=") {
                return (Encoding.percentDecode(pair[..<equals]), Encoding.percentDecode(pair[pair.index(after: equals)...]))
            }
            return (Encoding.percentDecode(pair), "")
        }
    }

    /// The canonical query string for already decoded pairs.
    static func canonical(_ pairs: [(name: String, value: String)]) -> String {
        pairs
            .map { (Encoding.percentEncode($0.name), Encoding.percentEncode($0.value)) }
            .sorted { lhs, rhs in
                lhs.0 == rhs.0 ? Array(lhs.1.utf8).lexicographicallyPrecedes(rhs.1.utf8)
                    : Array(lhs.0.utf8).lexicographicallyPrecedes(rhs.0.utf8)
            }
            .map { "\($0.0)=\($0.1)" }
            .joined(separator: "&")
    }

    /// The canonical query string of a raw query.
    static func canonical(_ query: some StringProtocol) -> String {
        canonical(pairs(query))
    }

    /// Splits a request-target path into its path and its query (without `?`), if any.
    static func split(target: String) -> (path: Substring, query: Substring?) {
        guard let mark = target.firstIndex(of: "?") else { return (target[...], nil) }
        return (target[..<mark], target[target.index(after: mark)...])
    }
}
