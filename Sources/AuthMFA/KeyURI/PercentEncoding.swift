import AuthCore

/// RFC 3986 percent-encoding for `otpauth://` labels and parameter values.
///
/// Encoding leaves only the unreserved characters (`A–Z a–z 0–9 - . _ ~`) as they are and
/// writes every other UTF-8 byte as `%XX`, so a space becomes `%20` and `:` becomes `%3A`.
/// Decoding turns `%XX` back into bytes, requires valid UTF-8, and keeps `+` as a plus sign.
enum PercentEncoding {
    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// `text` with everything but unreserved characters percent-encoded.
    static func encode(_ text: String) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isUnreserved(byte) {
                output.append(byte)
            } else {
                output.append(UInt8(ascii: "%"))
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// `text` with `%XX` escapes decoded, or nil when an escape is malformed or the result is
    /// not valid UTF-8.
    static func decode<S: StringProtocol>(_ text: S) -> String? {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                output.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                return nil
            }
            output.append(high << 4 | low)
        }
        return String(validating: output, as: UTF8.self)
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool { URIBytes.isUnreserved(byte) }

    private static func hexValue(_ byte: UInt8) -> UInt8? { URIBytes.hexValue(byte) }
}
