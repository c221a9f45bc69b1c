// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// The one normalization of store keys: Unicode Normalization Form C.
///
/// Swift's `String ==` compares canonical equivalence, so `"café"` (NFC, `é` as U+00E9) and
/// `"café"` (NFD, `e` + U+0301) are equal keys to a dictionary or a cache, while SQLite and file
/// names compare bytes. Every ``AccountKey`` and ``CredentialKey`` is built through this, so
/// every store receives one byte form per key and no two users' records can answer for each
/// other. A store that receives names from elsewhere (a listing, a caller's namespace) can call
/// ``nfc(_:)`` itself.
public enum KeyNormalization {
    /// `text` in NFC; ASCII text (the common case) is returned as it is, without a copy.
    public static func nfc(_ text: String) -> String {
        var text = text
        let isASCII = text.withUTF8 { bytes in bytes.allSatisfy { $0 < 0x80 } }
        return isASCII ? text : text.precomposedStringWithCanonicalMapping
    }
}
