// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether a host names this machine: an IPv4 literal in 127.0.0.0/8, the IPv6 literal `::1`
/// (in any of its spellings), or the name `localhost`.
///
/// Decided by the C library's `inet_pton`, which accepts only the strict forms (four decimal
/// parts for IPv4, no `127.1` or octal shorthand), so a name such as `127.evil.example.com`
/// is never taken for loopback.
enum Loopback {
    /// Whether `host` (lower-case, without brackets) is a loopback host.
    static func contains(_ host: String) -> Bool {
        var host = host
        return host.withUTF8 { contains($0) }
    }

    /// Whether the lower-case ASCII `host` bytes (without brackets) are a loopback host.
    static func contains(_ host: UnsafeBufferPointer<UInt8>) -> Bool {
        if host.elementsEqual("localhost".utf8) { return true }
        // The longest IPv6 text form is 45 bytes; anything longer is not an address.
        guard !host.isEmpty, host.count <= 45 else { return false }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: host.count + 1) { text in
            for (index, byte) in host.enumerated() { text[index] = CChar(bitPattern: byte) }
            text[host.count] = 0
            guard let address = text.baseAddress else { return false }
            var v4 = in_addr()
            if inet_pton(AF_INET, address, &v4) == 1 {
                return UInt32(bigEndian: v4.s_addr) >> 24 == 127
            }
            var v6 = in6_addr()
            guard inet_pton(AF_INET6, address, &v6) == 1 else { return false }
            return withUnsafeBytes(of: &v6) { bytes in bytes.prefix(15).allSatisfy { $0 == 0 } && bytes[15] == 1 }
        }
    }
}
