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
    if sameRepresentation(of: a, b) { return true }
    let count = a.utf8.count
    guard count == b.utf8.count else { return false }
    guard count > 0 else { return true }
    return withUTF8Bytes(a) { x in
        withUTF8Bytes(b) { y in memcmp(x.baseAddress!, y.baseAddress!, count) == 0 }
    }
}

/// Whether two values have the same representation, bit for bit: the same value, for a value made
/// of plain bits and references to copy-on-write storage (a `String`, HTTPTypes' pseudo-header
/// fields), as long as one of them is kept (shared storage is not changed in place). A false
/// answer says nothing: equal values may be represented differently.
///
/// Word by word: a call of `memcmp` costs several times that for a value of a few words.
package func sameRepresentation<T>(of a: T, _ b: T) -> Bool {
    withUnsafeBytes(of: a) { a in
        withUnsafeBytes(of: b) { b in
            var offset = 0
            while offset + 8 <= a.count {
                guard a.loadUnaligned(fromByteOffset: offset, as: UInt64.self) == b.loadUnaligned(fromByteOffset: offset, as: UInt64.self) else { return false }
                offset += 8
            }
            while offset < a.count {
                guard a[offset] == b[offset] else { return false }
                offset += 1
            }
            return true
        }
    }
}
