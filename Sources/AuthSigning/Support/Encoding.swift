import AuthCore
import Foundation

/// Byte and text encodings the signers share: hex, RFC 3986 percent-encoding, random nonces.
/// The byte-level work is in ``CanonicalBytes``; these are its string forms.
@usableFromInline
enum Encoding {
    /// Lower-case hexadecimal of `bytes`.
    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        var out: [UInt8] = []
        out.appendLowerHex(bytes)
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether `byte` is an RFC 3986 unreserved character: `A-Z a-z 0-9 - . _ ~`.
    static func isUnreserved(_ byte: UInt8) -> Bool { CanonicalBytes.isUnreserved(byte) }

    /// Percent-encodes every byte of the UTF-8 form of `text` except the unreserved characters,
    /// with upper-case hex digits (RFC 3986 §2.1), as SigV4 and the HMAC scheme require.
    static func percentEncode(_ text: some StringProtocol) -> String {
        var out: [UInt8] = []
        out.appendEncoding(of: text.utf8)
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes `%XX` escapes; a `%` not followed by two hex digits is kept as it is.
    /// `+` is kept (it is not a space outside form bodies). Invalid UTF-8 is repaired, so this
    /// is for display and lookups; what is signed is decoded as bytes (``CanonicalBytes``).
    static func percentDecode(_ text: some StringProtocol) -> String {
        String(decoding: CanonicalBytes.withBytes(of: text) { URIBytes.percentDecoded($0) }, as: UTF8.self)
    }

    /// `count` random bytes from the system's cryptographically secure generator, as hex.
    @usableFromInline
    static func randomHex(byteCount: Int = 16) -> String {
        var generator = SystemRandomNumberGenerator()
        var out: [UInt8] = []
        out.reserveCapacity(2 * max(0, byteCount))
        var remaining = byteCount
        while remaining > 0 {
            var word: UInt64 = generator.next()
            for _ in 0..<min(8, remaining) {
                out.appendLowerHex(CollectionOfOne(UInt8(truncatingIfNeeded: word)))
                word >>= 8
            }
            remaining -= 8
        }
        return String(decoding: out, as: UTF8.self)
    }
}
