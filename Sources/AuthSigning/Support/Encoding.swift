// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Foundation

/// The string forms the signers need next to ``CanonicalBytes``: percent-decoding for display and
/// lookups, and random nonces.
@usableFromInline
enum Encoding {
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
