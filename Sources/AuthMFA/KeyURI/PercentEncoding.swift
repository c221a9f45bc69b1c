// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore

/// RFC 3986 percent-encoding for `otpauth://` labels and parameter values.
///
/// Encoding leaves only the unreserved characters (`A–Z a–z 0–9 - . _ ~`) as they are and
/// writes every other UTF-8 byte as `%XX`, so a space becomes `%20` and `:` becomes `%3A`.
/// Decoding turns `%XX` back into bytes, requires valid UTF-8, and keeps `+` as a plus sign.
enum PercentEncoding {
    /// `text` with everything but unreserved characters percent-encoded (the package's one
    /// percent-encoder, `FormURLEncoding.encode(_:keeping:spaceAs:)`).
    static func encode(_ text: String) -> String {
        FormURLEncoding.encode(text, keeping: .unreserved, spaceAs: .percent20)
    }

    /// `text` with `%XX` escapes decoded, or nil when an escape is malformed or the result is
    /// not valid UTF-8.
    ///
    /// Deliberately not `FormURLEncoding.decode(_:)`: that one reads `+` as a space and, being
    /// Foundation's `removingPercentEncoding`, repairs bytes that are not UTF-8 and drops a
    /// leading byte order mark, where an `otpauth://` URI is refused.
    static func decode<S: StringProtocol>(_ text: S) -> String? {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                output.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                return nil
            }
            output.append(high << 4 | low)
        }
        return String(validating: output, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? { URIBytes.hexValue(byte) }
}
