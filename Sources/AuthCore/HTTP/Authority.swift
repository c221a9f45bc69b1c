// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// The host and port of an HTTP authority, parsed on its UTF-8 bytes without building strings.
///
/// This is the one parser of a request's authority: ``Origin``, ``AllowedHosts`` and every
/// transport (through ``AuthRequest/urlForTransport()``) read the host and port from it, so what
/// is checked is where the request goes. It is strict, accepting only what RFC 9110 §7.2 allows
/// in a `Host` field — `uri-host [":" port]` — and rejecting everything a URL parser might read
/// differently:
/// - a host is a registered name of letters, digits, `-`, `.`, `_` and `~`, or a bracketed IPv6
///   literal of hex digits, `:` and `.`; no userinfo (`@`), no percent-escapes, no `/ ? # \`,
///   no spaces or bytes outside ASCII;
/// - a port is one to five decimal digits no greater than 65535, after exactly one `:`.
struct Authority {
    /// The host's byte range in the authority, without brackets.
    let host: Range<Int>
    /// The explicit port, if there is one.
    let port: Int?

    /// Splits `bytes`; nil when they are not `host[:port]` as described above.
    init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        let end = bytes.count
        guard end > 0 else { return nil }
        let hostEnd: Int
        if bytes[0] == UInt8(ascii: "[") {
            guard let close = bytes.firstIndex(of: UInt8(ascii: "]")), close > 1,
                  bytes[1..<close].allSatisfy(Self.isIPv6LiteralByte) else { return nil }
            host = 1..<close
            hostEnd = close + 1
        } else {
            var index = 0
            while index < end, Self.isRegisteredNameByte(bytes[index]) { index += 1 }
            guard index > 0 else { return nil }
            host = 0..<index
            hostEnd = index
        }
        if hostEnd == end {
            port = nil
        } else {
            guard bytes[hostEnd] == UInt8(ascii: ":"), let port = Self.port(bytes, hostEnd + 1..<end) else { return nil }
            self.port = port
        }
    }

    /// One to five decimal digits making at most 65535; nil otherwise.
    static func port(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
        guard !range.isEmpty, range.count <= 5 else { return nil }
        var value = 0
        for index in range {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            value = value * 10 + Int(digit)
        }
        return value <= 65_535 ? value : nil
    }

    /// RFC 3986 unreserved characters: what a DNS name or an IPv4 literal is made of.
    static func isRegisteredNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    /// Hex digits, `:` and `.` (an IPv4 tail): an IPv6 literal without a zone.
    static func isIPv6LiteralByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"),
             UInt8(ascii: ":"), UInt8(ascii: "."):
            true
        default:
            false
        }
    }
}
