import Foundation

/// Whether two strings are the same bytes (both absent counts as the same).
///
/// What a cache keyed by strings compares: `==` also takes canonically equivalent strings as
/// equal (`K` and a Kelvin sign, `;` and a Greek question mark), which a parser that reads bytes
/// tells apart, so an answer kept for one must not be given for the other. One `memcmp` of the
/// strings' contiguous bytes (`elementsEqual`, even over buffers, costs about 20 instructions a
/// byte).
package func sameBytes(_ a: String?, _ b: String?) -> Bool {
    guard var a, var b else { return a == nil && b == nil }
    guard a.utf8.count == b.utf8.count else { return false }
    return a.withUTF8 { a in
        b.withUTF8 { b in
            guard let x = a.baseAddress, let y = b.baseAddress else { return true }
            return memcmp(x, y, a.count) == 0
        }
    }
}
