// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import HTTPTypes

/// Field names of AsyncHTTPClient's responses as `HTTPField.Name`s.
///
/// `HTTPField.Name(_:)` validates and lower-cases a copy of every name (about 400 instructions
/// each); the names nearly every response carries are matched here in any case against
/// constants instead, so only unusual names take that path. A matched name takes the constant's
/// spelling as its `rawName` (`Content-Type` for a server's `content-type`); names compare
/// without regard to case either way, as HTTP's do.
enum ResponseFieldNames {
    static let common: [HTTPField.Name] = [
        .contentType, .contentLength, .date, .server, .connection, .cacheControl, .eTag, .lastModified,
        .setCookie, .location, .wwwAuthenticate, .retryAfter, .vary, .transferEncoding, .contentEncoding, .expires, .age,
    ]
    /// The bytes of each common name's canonical (lower-case) form.
    private static let commonBytes: [[UInt8]] = common.map { Array($0.canonicalName.utf8) }

    /// The name for `raw`, or nil when it is not a valid field name.
    static func name(_ raw: String) -> HTTPField.Name? {
        let index = withUTF8Bytes(raw) { raw -> Int? in
            commonBytes.firstIndex { canonical in canonical.withUnsafeBufferPointer { isName(raw, canonical: $0) } }
        }
        return index.map { common[$0] } ?? HTTPField.Name(raw)
    }

    /// Whether `raw` is the lower-case `canonical` in any case of its ASCII letters, and only
    /// those (not NIO's fold, which clears bit 5 of every byte and so takes `^` for `~`).
    static func isName(_ raw: UnsafeBufferPointer<UInt8>, canonical: UnsafeBufferPointer<UInt8>) -> Bool {
        guard canonical.count == raw.count else { return false }
        for offset in 0..<raw.count {
            let byte = raw[offset]
            let lower = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
            if canonical[offset] != lower { return false }
        }
        return true
    }
}
