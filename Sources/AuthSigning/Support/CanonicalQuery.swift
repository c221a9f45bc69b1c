/// The canonical form of a URL query shared by SigV4 and the HMAC scheme.
///
/// The query (the part of the path after the first `?`) is split on `&`, each pair on its first
/// `=` (a pair without `=` has an empty value, empty pairs are dropped). Each name and value is
/// percent-decoded to bytes and then percent-encoded again with RFC 3986 rules (only
/// `A-Z a-z 0-9 - . _ ~` stay as they are, hex digits upper case; `+` is a literal plus and becomes
/// `%2B`; an escape of a byte that is not UTF-8, such as `%FF`, stays that byte). The pairs are
/// sorted by encoded name, then by encoded value (byte order) and joined as
/// `name=value&name=value`.
enum CanonicalQuery {
    /// The decoded `(name, value)` pairs of `query`, in order (invalid UTF-8 repaired; for
    /// display and lookups, never for what is signed).
    static func pairs(_ query: some StringProtocol) -> [(name: String, value: String)] {
        query.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            if let equals = pair.firstIndex(of: "=") {
                return (Encoding.percentDecode(pair[..<equals]), Encoding.percentDecode(pair[pair.index(after: equals)...]))
            }
            return (Encoding.percentDecode(pair), "")
        }
    }

    /// The canonical query string of a raw query.
    static func canonical(_ query: some StringProtocol) -> String {
        var out: [UInt8] = []
        append(canonicalOf: query, extra: [], to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the canonical form of the raw `query` with the already decoded `extra` pairs
    /// added, in one pass over the bytes: each pair is encoded once into `out`, then the encoded
    /// pairs are put in order by moving bytes, never by building strings.
    static func append(canonicalOf query: (some StringProtocol)?, extra: [(name: String, value: String)], to out: inout [UInt8]) {
        var scratch: [UInt8] = []
        var pairs: [EncodedPair] = []
        if let query {
            CanonicalBytes.withBytes(of: query) { bytes in
                scratch.reserveCapacity(bytes.count + 16)
                var start = 0
                while start <= bytes.count {
                    var end = start
                    while end < bytes.count, bytes[end] != UInt8(ascii: "&") { end += 1 }
                    if end > start {
                        let pair = UnsafeBufferPointer(rebasing: bytes[start..<end])
                        let equals = pair.firstIndex(of: UInt8(ascii: "=")) ?? pair.count
                        let nameStart = scratch.count
                        scratch.appendReencoding(of: UnsafeBufferPointer(rebasing: pair[..<equals]))
                        let valueStart = scratch.count
                        if equals < pair.count {
                            scratch.appendReencoding(of: UnsafeBufferPointer(rebasing: pair[(equals + 1)...]))
                        }
                        pairs.append(EncodedPair(name: nameStart..<valueStart, value: valueStart..<scratch.count))
                    }
                    start = end + 1
                }
            }
        }
        for (name, value) in extra {
            let nameStart = scratch.count
            scratch.appendEncoding(of: name.utf8)
            let valueStart = scratch.count
            scratch.appendEncoding(of: value.utf8)
            pairs.append(EncodedPair(name: nameStart..<valueStart, value: valueStart..<scratch.count))
        }
        guard !pairs.isEmpty else { return }
        scratch.withUnsafeBufferPointer { bytes in
            if pairs.count > 1 {
                pairs.sort { lhs, rhs in
                    let lhsName = bytes[lhs.name], rhsName = bytes[rhs.name]
                    if lhsName.elementsEqual(rhsName) { return bytes[lhs.value].lexicographicallyPrecedes(bytes[rhs.value]) }
                    return lhsName.lexicographicallyPrecedes(rhsName)
                }
            }
            out.reserveCapacity(out.count + bytes.count + 2 * pairs.count)
            for (index, pair) in pairs.enumerated() {
                if index > 0 { out.append(UInt8(ascii: "&")) }
                out.append(contentsOf: bytes[pair.name])
                out.append(UInt8(ascii: "="))
                out.append(contentsOf: bytes[pair.value])
            }
        }
    }

    /// Where one encoded pair's name and value lie in the scratch buffer.
    private struct EncodedPair {
        var name: Range<Int>
        var value: Range<Int>
    }

    /// Splits a request-target path into its path and its query (without `?`), if any.
    static func split(target: String) -> (path: Substring, query: Substring?) {
        guard let mark = target.utf8.firstIndex(of: UInt8(ascii: "?")) else { return (target[...], nil) }
        return (target[..<mark], target[target.utf8.index(after: mark)...])
    }
}
