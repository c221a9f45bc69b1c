import Foundation

/// Whether two strings are the same bytes (both absent counts as the same).
///
/// What a cache keyed by strings compares: `==` also takes canonically equivalent strings as
/// equal (`K` and a Kelvin sign, `;` and a Greek question mark), which a parser that reads bytes
/// tells apart, so an answer kept for one must not be given for the other.
///
/// Two copies of one string (a cache's key and the request it was made from) have the same
/// representation, the same small-string bytes or the same storage, and are the same bytes
/// without reading them. Other strings are compared by one `memcmp` of their contiguous bytes
/// (`elementsEqual`, even over buffers, costs about 20 instructions a byte).
package func sameBytes(_ a: String?, _ b: String?) -> Bool {
    guard let a, let b else { return a == nil && b == nil }
    if sameRepresentation(a, b) { return true }
    let count = a.utf8.count
    guard count == b.utf8.count else { return false }
    guard count > 0 else { return true }
    return withUTF8Bytes(a) { x in
        withUTF8Bytes(b) { y in memcmp(x.baseAddress!, y.baseAddress!, count) == 0 }
    }
}

/// Whether two strings are one value: equal representations are equal bytes (a small string's
/// bytes are its representation; a large one's storage is immutable while shared). Compared as
/// two words where a string is two words: a call of `memcmp` costs several times that, and a
/// request asks this eight times.
private func sameRepresentation(_ a: String, _ b: String) -> Bool {
    #if _pointerBitWidth(_64)
    let (a0, a1) = unsafeBitCast(a, to: (UInt64, UInt64).self)
    let (b0, b1) = unsafeBitCast(b, to: (UInt64, UInt64).self)
    return a0 == b0 && a1 == b1
    #else
    return withUnsafeBytes(of: a) { a in
        withUnsafeBytes(of: b) { b in memcmp(a.baseAddress!, b.baseAddress!, MemoryLayout<String>.size) == 0 }
    }
    #endif
}
