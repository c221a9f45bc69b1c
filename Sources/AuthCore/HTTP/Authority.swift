/// The host and port of an HTTP authority (`user@host:port`, `[v6]:port`), found on its UTF-8
/// bytes without building strings.
///
/// It splits exactly as ``Origin`` does: userinfo up to the last `@` is dropped; a bracketed host
/// is an IPv6 address with an optional `:port` after the bracket; otherwise the port follows the
/// last `:`. A port that is not an integer counts as absent (the scheme's default applies).
struct Authority {
    /// The host's byte range in the authority, without brackets.
    let host: Range<Int>
    /// The explicit port, if there is one and it is an integer.
    let port: Int?

    /// Splits `bytes`; nil for an empty authority or an unclosed `[`.
    init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard !bytes.isEmpty else { return nil }
        var start = 0
        if let at = bytes.lastIndex(of: UInt8(ascii: "@")) { start = at + 1 }
        let end = bytes.count
        if start < end, bytes[start] == UInt8(ascii: "[") {
            guard let close = bytes[start..<end].firstIndex(of: UInt8(ascii: "]")) else { return nil }
            host = start + 1..<close
            port = close + 1 < end && bytes[close + 1] == UInt8(ascii: ":") ? Self.integer(bytes, close + 2..<end) : nil
        } else if let colon = bytes[start..<end].lastIndex(of: UInt8(ascii: ":")) {
            host = start..<colon
            port = Self.integer(bytes, colon + 1..<end)
        } else {
            host = start..<end
            port = nil
        }
    }

    /// The integer in `range` as `Int(_: Substring)` reads it (optional sign, decimal digits, no
    /// overflow); nil otherwise.
    static func integer(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
        var index = range.lowerBound
        var negative = false
        if index < range.upperBound, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        guard index < range.upperBound else { return nil }
        var value = 0
        while index < range.upperBound {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = negative ? times10.subtractingReportingOverflow(Int(digit)) : times10.addingReportingOverflow(Int(digit))
            guard !overflow1, !overflow2 else { return nil }
            value = next
            index += 1
        }
        return value
    }
}
