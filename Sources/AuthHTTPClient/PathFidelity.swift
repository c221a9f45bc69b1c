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
            var decoded: [UInt8] = []
            decoded.reserveCapacity(end)
            var index = 0
            while index < end {
                if bytes[index] == UInt8(ascii: "%"), index + 2 < end,
                   let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) {
                    decoded.append(high << 4 | low)
                    index += 3
                } else {
                    decoded.append(bytes[index])
                    index += 1
                }
            }
            return String(validating: decoded, as: UTF8.self) != nil
        }
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
