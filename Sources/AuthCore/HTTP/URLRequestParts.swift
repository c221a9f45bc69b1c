// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

package import Foundation

/// The scheme, authority and request target of an absolute URL, read from its string in one
/// pass over the bytes.
///
/// The same parts as HTTPTypes' `HTTPRequest(method:url:)`, which on Linux rebuilds the URL
/// through `URLComponents` and re-serializes it (about 7,000 instructions, half the cost of
/// building a request): the authority is host and port as written (no user info; an empty port
/// is dropped), the target is path and query as written (no fragment), with `/` in front when the
/// path is empty. `RequestFromURLTests` compares the two over generated URLs.
package enum URLRequestParts {
    /// The parts of `url`, or nil when it has no scheme or no authority with a host.
    package static func of(_ url: URL) -> (scheme: String, authority: String, target: String)? {
        var text = url.absoluteString
        return text.withUTF8 { parts(of: $0) }
    }

    private static func parts(of bytes: UnsafeBufferPointer<UInt8>) -> (scheme: String, authority: String, target: String)? {
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), isScheme(UnsafeBufferPointer(rebasing: bytes[..<colon])),
              bytes.count >= colon + 3, bytes[colon + 1] == UInt8(ascii: "/"), bytes[colon + 2] == UInt8(ascii: "/") else { return nil }
        let authorityStart = colon + 3
        var authorityEnd = authorityStart
        while authorityEnd < bytes.count {
            let byte = bytes[authorityEnd]
            if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { break }
            authorityEnd += 1
        }
        // The host starts after the last `@` (user info ends there).
        var hostStart = authorityStart
        for index in authorityStart..<authorityEnd where bytes[index] == UInt8(ascii: "@") { hostStart = index + 1 }
        var hostEnd = authorityEnd
        // An empty port (`host:`) is no port. A `:` inside an IPv6 literal is not a port's.
        if hostEnd > hostStart, bytes[hostEnd - 1] == UInt8(ascii: ":") { hostEnd -= 1 }
        guard hostEnd > hostStart, bytes[hostStart] != UInt8(ascii: ":") else { return nil }
        var targetEnd = authorityEnd
        while targetEnd < bytes.count, bytes[targetEnd] != UInt8(ascii: "#") { targetEnd += 1 }
        let scheme = String(decoding: UnsafeBufferPointer(rebasing: bytes[..<colon]), as: UTF8.self)
        let authority = String(decoding: UnsafeBufferPointer(rebasing: bytes[hostStart..<hostEnd]), as: UTF8.self)
        let target: String
        if authorityEnd == targetEnd {
            target = "/"
        } else if bytes[authorityEnd] == UInt8(ascii: "?") {
            target = "/" + String(decoding: UnsafeBufferPointer(rebasing: bytes[authorityEnd..<targetEnd]), as: UTF8.self)
        } else {
            target = String(decoding: UnsafeBufferPointer(rebasing: bytes[authorityEnd..<targetEnd]), as: UTF8.self)
        }
        return (scheme, authority, target)
    }

    /// Whether `bytes` is a scheme (RFC 3986 §3.1: a letter, then letters, digits, `+`, `-`,
    /// `.`), so that a relative reference such as `host/path?next=https://x` is not read as one.
    private static func isScheme(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = bytes.first, (first | 0x20) >= UInt8(ascii: "a"), (first | 0x20) <= UInt8(ascii: "z") else { return false }
        return bytes.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
                true
            default:
                false
            }
        }
    }
}
