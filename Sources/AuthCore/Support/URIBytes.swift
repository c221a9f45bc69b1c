/// The byte classes of RFC 3986 URI components, shared by the modules that encode, decode or sign
/// them (signing, the transport, otpauth URIs), within this package only.
package enum URIBytes {
    /// Whether `byte` is an RFC 3986 unreserved character: `A-Z a-z 0-9 - . _ ~`.
    @inlinable
    package static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    /// The value of a hex digit of either case.
    @inlinable
    package static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// `bytes` with each `%XX` escape decoded; a `%` not followed by two hex digits stays as it
    /// is. The result may not be UTF-8.
    package static func percentDecoded(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            let first = bytes.index(after: index)
            if byte == UInt8(ascii: "%"), first != bytes.endIndex, bytes.index(after: first) != bytes.endIndex,
               let high = hexValue(bytes[first]), let low = hexValue(bytes[bytes.index(after: first)]) {
                out.append(high << 4 | low)
                index = bytes.index(first, offsetBy: 2)
            } else {
                out.append(byte)
                index = first
            }
        }
        return out
    }
}
