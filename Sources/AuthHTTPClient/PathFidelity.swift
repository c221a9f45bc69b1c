import AuthCore

/// What AsyncHTTPClient can put on the wire as a request target.
///
/// AsyncHTTPClient takes the URL as a string, parses it with Foundation's `URL`, and sends `/`
/// whenever `URL.path` is empty: which it is for a path whose percent-escapes decode to bytes
/// that are not UTF-8 (`/photos/a%FF.jpg`). Such a request would reach another resource, signed
/// for the path it named; the transport refuses it instead.
enum PathFidelity {
    /// Whether AsyncHTTPClient sends `target`'s path unchanged: true unless its escapes decode to
    /// bytes that are not UTF-8. Costs one scan of the path, and a decode only when it holds a `%`.
    static func isSentUnchanged(_ target: String) -> Bool {
        var target = target
        return target.withUTF8 { bytes in
            let end = bytes.firstIndex(of: UInt8(ascii: "?")) ?? bytes.count
            guard bytes[..<end].contains(UInt8(ascii: "%")) else { return true }
            return String(validating: URIBytes.percentDecoded(UnsafeBufferPointer(rebasing: bytes[..<end])), as: UTF8.self) != nil
        }
    }
}
