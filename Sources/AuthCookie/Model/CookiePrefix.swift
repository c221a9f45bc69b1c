// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore

/// A cookie name prefix of RFC 6265bis §4.1.3, which restricts how the cookie may be set.
///
/// The prefix is matched case-insensitively (ASCII), as the current draft and browsers do, so
/// `__secure-id` and `__HOST-id` are prefixed names too.
enum CookiePrefix: CustomStringConvertible {
    /// `__Secure-`: the cookie must have `Secure` and come from a secure origin.
    case secure
    /// `__Host-`: as ``secure``, and the cookie must have no `Domain` attribute and `Path=/`.
    case host

    /// The prefix that `name` starts with, if any.
    init?(name: String) {
        if Self.hasPrefix(name, Self.secureBytes) {
            self = .secure
        } else if Self.hasPrefix(name, Self.hostBytes) {
            self = .host
        } else {
            return nil
        }
    }

    /// `__Secure-` or `__Host-`.
    var description: String {
        switch self {
        case .secure: "__Secure-"
        case .host: "__Host-"
        }
    }

    private static let secureBytes = Array("__secure-".utf8)
    private static let hostBytes = Array("__host-".utf8)

    /// Whether `name` starts with `lowerCasePrefix`, ignoring the case of ASCII letters.
    private static func hasPrefix(_ name: String, _ lowerCasePrefix: [UInt8]) -> Bool {
        withUTF8Bytes(name) { bytes in
            guard bytes.count >= lowerCasePrefix.count else { return false }
            for (offset, expected) in lowerCasePrefix.enumerated() {
                let byte = bytes[offset]
                let lowered = (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
                if lowered != expected { return false }
            }
            return true
        }
    }
}
