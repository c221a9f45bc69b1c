import Foundation
package import HTTPTypes

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

/// Whether two strings are one value: equal representations are equal bytes (a small string's
/// bytes are its representation; a large one's storage is immutable while shared).
private func sameRepresentation(of a: String, _ b: String) -> Bool {
    sameBits(a, b)
}

/// Whether two sets of pseudo-header fields are one value: the same copy-on-write storage (what
/// HTTPTypes holds them in), which is not changed in place while two values share it. A false
/// answer says nothing: equal fields may be held in two storages.
///
/// The caller keeps `a` (a cache's entry holds it): a storage freed meanwhile could otherwise
/// come back at the same address with other fields. `PseudoHeaderFieldsLayoutTests` checks that
/// the fields are still one reference.
package func sameRepresentation(of a: HTTPRequest.PseudoHeaderFields, _ b: HTTPRequest.PseudoHeaderFields) -> Bool {
    sameBits(a, b)
}

/// Whether two sets of header fields are one value: the same copy-on-write storage (the array
/// HTTPTypes holds them in), which is not changed in place while two values share it. A false
/// answer says nothing: equal fields may be held in two storages.
///
/// The caller keeps `a`, as for pseudo-header fields. `PseudoHeaderFieldsLayoutTests` checks
/// that the fields are still one reference.
package func sameRepresentation(of a: HTTPFields, _ b: HTTPFields) -> Bool {
    sameBits(a, b)
}

/// Whether kept pseudo-header fields, if any, are `b`'s storage: what
/// `sameRepresentation(of:_:)` answers, without unwrapping (and so retaining) the kept value.
/// False when there are none: an optional of one reference is that reference, nil none.
package func sameRepresentation(of a: HTTPRequest.PseudoHeaderFields?, _ b: HTTPRequest.PseudoHeaderFields) -> Bool {
    sameBits(a, b)
}

/// Whether kept header fields, if any, are `b`'s storage (see the form for pseudo-header fields).
package func sameRepresentation(of a: HTTPFields?, _ b: HTTPFields) -> Bool {
    sameBits(a, b)
}

/// Whether two values are the same bits, word by word: a call of `memcmp` costs several times
/// that for a value of a word or two.
///
/// Values of two types (an optional and its wrapped type) are the same bits only when they are
/// the same size.
@inline(__always)
private func sameBits<A, B>(_ a: A, _ b: B) -> Bool {
    withUnsafeBytes(of: a) { a in
        withUnsafeBytes(of: b) { b in
            guard a.count == b.count else { return false }
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
