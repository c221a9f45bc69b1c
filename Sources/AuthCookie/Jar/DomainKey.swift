// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Foundation

/// A domain as a key of the jar's index: a string, or the tail of one from a UTF-8 offset.
///
/// A request for `a.b.example.com` looks up `a.b.example.com`, `b.example.com` and
/// `example.com`; with this key each parent domain is the same host string with a larger
/// offset, so no string is allocated or re-indexed per lookup. Hashing and equality use the
/// UTF-8 bytes.
struct DomainKey: Hashable {
    /// The string holding the domain.
    let base: String
    /// Where the domain starts in `base`, in UTF-8 bytes.
    let offset: Int

    /// The key of a whole string.
    init(_ domain: String) {
        base = domain
        offset = 0
    }

    /// The key of `base`'s tail from a UTF-8 offset.
    init(_ base: String, from offset: Int) {
        self.base = base
        self.offset = offset
    }

    static func == (lhs: DomainKey, rhs: DomainKey) -> Bool {
        withUTF8Bytes(lhs.base) { left in
            withUTF8Bytes(rhs.base) { right in
                let a = UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: left[lhs.offset...]))
                let b = UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: right[rhs.offset...]))
                guard a.count == b.count else { return false }
                guard let x = a.baseAddress, let y = b.baseAddress else { return true }
                return memcmp(x, y, a.count) == 0
            }
        }
    }

    func hash(into hasher: inout Hasher) {
        withUTF8Bytes(base) { bytes in
            hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[offset...])))
        }
    }
}
