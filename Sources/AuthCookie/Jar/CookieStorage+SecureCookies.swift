// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation

extension CookieStorage {
    /// "Leave secure cookies alone" (RFC 6265bis §5.7): whether the jar holds an unexpired
    /// `Secure` cookie that `cookie`, arriving from an insecure origin, would overwrite, shadow
    /// or delete: one with the same name, whose domain domain-matches `cookie`'s domain or the
    /// reverse, and whose path `cookie`'s path path-matches.
    ///
    /// Related domains can be parents or subdomains, so every bucket is looked at; the jar's
    /// total limit bounds that, and only responses from insecure origins pay for it.
    func hasSecureCookie(shadowedBy cookie: Cookie, now: Date) -> Bool {
        for bucket in buckets.values {
            guard let domain = bucket.first?.domain else { continue }
            let candidate = bucket.contains { existing in
                existing.isSecure && existing.name == cookie.name && !existing.isExpired(at: now)
                    && PathMatch.matches(requestPath: cookie.path, cookiePath: existing.path)
            }
            if candidate, DomainMatch.matches(host: domain, domain: cookie.domain) || DomainMatch.matches(host: cookie.domain, domain: domain) {
                return true
            }
        }
        return false
    }
}
