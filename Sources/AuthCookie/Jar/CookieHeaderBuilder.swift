// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// Serialises the cookies to send as a `Cookie` header value (RFC 6265 §5.4 step 4):
/// `name=value` pairs joined by `"; "`.
///
/// The header is written into one allocation of the exact size, which is much cheaper than
/// appending the pieces one by one.
enum CookieHeaderBuilder {
    /// The header value, or nil when there is no cookie to send.
    static func header(for matches: [CookieStorage.Match], in storage: CookieStorage) -> String? {
        guard !matches.isEmpty else { return nil }
        var length = 2 * (matches.count - 1)
        for match in matches {
            length += storage.withNameAndValue(of: match) { name, value in name.count + 1 + value.count }
        }
        return String(unsafeUninitializedCapacity: length) { buffer in
            var offset = 0
            for match in matches {
                storage.withNameAndValue(of: match) { name, value in
                    // Never write past the buffer, even if the two passes disagreed.
                    guard offset + (offset > 0 ? 2 : 0) + name.count + 1 + value.count <= buffer.count else { return }
                    if offset > 0 {
                        buffer[offset] = UInt8(ascii: ";")
                        buffer[offset + 1] = UInt8(ascii: " ")
                        offset += 2
                    }
                    offset = copy(name, into: buffer, at: offset)
                    buffer[offset] = UInt8(ascii: "=")
                    offset = copy(value, into: buffer, at: offset + 1)
                }
            }
            return offset
        }
    }

    private static func copy(_ bytes: UnsafeBufferPointer<UInt8>, into buffer: UnsafeMutableBufferPointer<UInt8>, at offset: Int) -> Int {
        guard let source = bytes.baseAddress, let destination = buffer.baseAddress else { return offset }
        (destination + offset).update(from: source, count: bytes.count)
        return offset + bytes.count
    }
}
