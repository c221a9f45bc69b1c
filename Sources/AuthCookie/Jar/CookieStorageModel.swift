// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// Steps 2–10 of the storage model (RFC 6265 §5.3), with the rules RFC 6265bis (§5.7) adds:
/// turns a parsed `Set-Cookie` received for a request URL into the cookie to store, or says why
/// it must be ignored.
///
/// The rule that needs the jar's contents ("leave secure cookies alone") is applied by
/// ``CookieJar`` under its lock, see ``CookieStorage/hasSecureCookie(shadowedBy:now:)``.
enum CookieStorageModel {
    /// The longest lifetime a cookie may have: 400 days (RFC 6265bis §5.6.1, §5.6.2), in seconds.
    static let maxLifetime: Int64 = 400 * 86_400

    /// Builds the cookie to store.
    /// - Throws: ``CookieError`` when the cookie must be ignored as a whole.
    static func cookie(
        from parsed: SetCookie,
        target: RequestTarget,
        configuration: CookieJarConfiguration,
        now: Date
    ) throws(CookieError) -> Cookie {
        let size = parsed.name.utf8.count + parsed.value.utf8.count
        guard size <= configuration.maxCookieSize else {
            throw CookieError(code: .tooLarge, message: "cookie '\(parsed.name)' is \(size) bytes; the limit is \(configuration.maxCookieSize)")
        }

        // Step 3: Max-Age wins over Expires; neither makes a session cookie. Either is capped
        // at 400 days from now (RFC 6265bis); a date in the past still deletes.
        let expiresAt: Date?
        if let maxAge = parsed.maxAge {
            expiresAt = maxAge <= 0 ? .distantPast : now.addingSaturated(seconds: min(maxAge, maxLifetime))
        } else if let expires = parsed.expires {
            expiresAt = min(expires, now.addingSaturated(seconds: maxLifetime))
        } else {
            expiresAt = nil
        }

        // Steps 4–6: the domain attribute, public suffixes, domain matching, host-only.
        var domainAttribute = parsed.domain ?? ""
        if !domainAttribute.isEmpty {
            domainAttribute = DomainMatch.canonicalHost(domainAttribute)
        }
        if !domainAttribute.isEmpty, configuration.publicSuffixes.isPublicSuffix(domainAttribute) {
            guard domainAttribute == target.host else {
                throw CookieError(code: .publicSuffix, message: "cookie '\(parsed.name)' names the public suffix '\(domainAttribute)' as its domain")
            }
            domainAttribute = ""
        }
        let isHostOnly: Bool
        let domain: String
        if domainAttribute.isEmpty {
            isHostOnly = true
            domain = target.host
        } else {
            guard DomainMatch.matches(host: target.host, domain: domainAttribute) else {
                throw CookieError(code: .domainMismatch, message: "cookie '\(parsed.name)' has domain '\(domainAttribute)', which does not match the request host '\(target.host)'")
            }
            // As browsers do: no wider than the host's registrable domain (`Domain=kobe.jp` from
            // `www.shop.kobe.jp`, itself registrable under the wildcard rule `*.kobe.jp`).
            if !target.isIPAddress {
                let site = configuration.publicSuffixes.registrableDomain(for: target.host) ?? target.host
                guard DomainMatch.matches(host: domainAttribute, domain: site) else {
                    throw CookieError(code: .publicSuffix, message: "cookie '\(parsed.name)' has domain '\(domainAttribute)', wider than the site '\(site)'")
                }
            }
            // An IP address can only match itself: such a cookie is in effect host-only.
            isHostOnly = target.isIPAddress
            domain = domainAttribute
        }

        // Step 8, with the modern rule that only secure origins may set Secure cookies.
        if parsed.isSecure, !target.isSecure, !configuration.acceptsSecureCookiesFromInsecureOrigins {
            throw CookieError(code: .insecureOrigin, message: "cookie '\(parsed.name)' is Secure but came from an insecure origin")
        }

        // RFC 6265bis: browsers ignore SameSite=None without Secure.
        if parsed.sameSite == SameSite.none, !parsed.isSecure {
            throw CookieError(code: .sameSiteNoneWithoutSecure, message: "cookie '\(parsed.name)' has SameSite=None without the Secure attribute")
        }

        try checkPrefix(of: parsed, target: target)

        // Step 7: the path attribute, or the default path of the request URL.
        let path = parsed.path ?? PathMatch.defaultPath(of: target.path)
        return Cookie(
            name: parsed.name, value: parsed.value, domain: domain, path: path, expiresAt: expiresAt,
            creationTime: now, lastAccessTime: now, isHostOnly: isHostOnly,
            isSecure: parsed.isSecure, isHTTPOnly: parsed.isHTTPOnly, sameSite: parsed.sameSite
        )
    }

    /// The cookie name prefixes (RFC 6265bis §4.1.3): `__Secure-` needs `Secure` and a secure
    /// origin, even when the jar accepts other `Secure` cookies from insecure origins;
    /// `__Host-` also needs no `Domain` attribute at all and the attribute `Path=/`.
    private static func checkPrefix(of parsed: SetCookie, target: RequestTarget) throws(CookieError) {
        guard let prefix = CookiePrefix(name: parsed.name) else { return }
        guard parsed.isSecure, target.isSecure else {
            throw CookieError(code: .invalidPrefix, message: "cookie '\(parsed.name)' has the \(prefix) prefix, which requires the Secure attribute and a secure origin")
        }
        if prefix == .host, parsed.domain != nil || parsed.path != "/" {
            throw CookieError(code: .invalidPrefix, message: "cookie '\(parsed.name)' has the __Host- prefix, which requires no Domain attribute and Path=/")
        }
    }
}

extension Date {
    /// `self + seconds`, clamped to `Date.distantFuture` instead of overflowing.
    func addingSaturated(seconds: Int64) -> Date {
        let limit = Date.distantFuture.timeIntervalSince(self)
        return Double(seconds) >= limit ? .distantFuture : addingTimeInterval(Double(seconds))
    }
}
