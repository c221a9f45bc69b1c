// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore

/// Host names and the domain-matching rule of RFC 6265 §5.1.2–§5.1.3.
enum DomainMatch {
    /// §5.1.3: `host` domain-matches `domain` when they are identical, or when `domain` is a
    /// suffix of `host` preceded by a dot and `host` is a host name (not an IP address).
    /// Both must already be canonical (lower-cased, IPv6 without brackets).
    static func matches(host: String, domain: String) -> Bool {
        if host == domain { return true }
        let hostBytes = host.utf8, domainBytes = domain.utf8
        guard hostBytes.count > domainBytes.count, !domain.isEmpty, !isIPAddress(host) else { return false }
        let dot = hostBytes.index(hostBytes.endIndex, offsetBy: -domainBytes.count - 1)
        return hostBytes[dot] == UInt8(ascii: ".")
            && hostBytes[hostBytes.index(after: dot)...].elementsEqual(domainBytes)
    }

    /// The canonical form of a host (§5.1.2): lower-cased, brackets of an IPv6 literal removed.
    /// International names are compared as given; no IDNA conversion is done here.
    static func canonicalHost(_ host: String) -> String {
        let (bracketed, hasUpperCase) = withUTF8Bytes(host) { bytes in
            (bytes.first == UInt8(ascii: "[") && bytes.last == UInt8(ascii: "]"),
             bytes.contains { $0 >= 0x41 && $0 <= 0x5A })
        }
        let unbracketed = bracketed ? String(host.utf8.dropFirst().dropLast()) ?? host : host
        return hasUpperCase ? unbracketed.lowercased() : unbracketed
    }

    /// Whether `host` is an IP address literal: IPv6 (it contains a colon) or IPv4 (its last
    /// label is a number, decimal or `0x` hexadecimal, as the URL Standard's host parser decides).
    static func isIPAddress(_ host: String) -> Bool {
        withUTF8Bytes(host) { bytes in
            if bytes.contains(UInt8(ascii: ":")) { return true }
            var end = bytes.count
            if end > 0, bytes[end - 1] == UInt8(ascii: ".") { end -= 1 }
            var start = end
            while start > 0, bytes[start - 1] != UInt8(ascii: ".") { start -= 1 }
            guard start < end else { return false }
            let label = bytes[start..<end]
            if label.allSatisfy(isDigit) { return true }
            guard label.count > 2, label[start] == UInt8(ascii: "0"), label[start + 1] | 0x20 == UInt8(ascii: "x") else { return false }
            return label.dropFirst(2).allSatisfy { isDigit($0) || (0x61...0x66).contains($0 | 0x20) }
        }
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// Whether `host` is a loopback host, by AuthCore's one definition (an IPv4 literal in
    /// 127.0.0.0/8, `::1` or `localhost`; see `Origin.isLoopback(host:)`).
    static func isLoopback(_ host: String) -> Bool {
        Origin.isLoopback(host: host)
    }
}
