// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// The limits and policies of a ``CookieJar``.
///
/// ```swift
/// var configuration = CookieJarConfiguration()
/// configuration.maxTotalCookies = 10_000
/// configuration.persistSessionCookies = true
/// let jar = CookieJar(configuration: configuration)
/// ```
public struct CookieJarConfiguration: Sendable, Hashable {
    /// The most cookies kept for one domain (the cookie's `Domain`, or its host when host-only).
    /// Storing one more evicts that domain's expired cookies, then the least recently accessed
    /// (ties: the earliest created). Default 50.
    public var maxCookiesPerDomain: Int
    /// The largest name plus value, in UTF-8 bytes, of a cookie the jar accepts; larger cookies
    /// are ignored. Default 4096.
    public var maxCookieSize: Int
    /// The most cookies in the jar; storing one more evicts expired cookies, then the least
    /// recently accessed anywhere, down to a tenth below the limit (as Chromium does), so that
    /// a full jar does not pay for an eviction on every cookie. Default 3000.
    public var maxTotalCookies: Int
    /// Whether a ``CookieJarSnapshot`` (and so a saved jar) includes session cookies, those
    /// without `Expires` or `Max-Age`. Default false: like a browser, a reload ends the session.
    public var persistSessionCookies: Bool
    /// The domains on which no cookie may be set. Default ``PublicSuffixList/builtIn``.
    public var publicSuffixes: PublicSuffixList
    /// Whether a `Secure` cookie may be stored from an `http` response. Default false, as in
    /// RFC 6265bis §5.7 and every current browser; RFC 6265 allowed it. Even when true, an
    /// `http` response cannot set a `__Secure-` or `__Host-` cookie, nor overwrite, shadow or
    /// delete a `Secure` cookie already in the jar.
    public var acceptsSecureCookiesFromInsecureOrigins: Bool
    /// Whether `http` to a loopback host (`localhost`, `127.0.0.0/8`, `::1`) counts as secure,
    /// both for storing and for sending `Secure` cookies, as browsers treat such origins as
    /// "potentially trustworthy" (and as ``/AuthCore/AllowedHosts`` lets loopback use `http`).
    /// Such an origin may then also set `__Secure-` and `__Host-` cookies and replace `Secure`
    /// cookies. Default true: a server on the developer's own machine that marks its session
    /// cookie `Secure` (fastapi-users, Flask with `SESSION_COOKIE_SECURE`) works over
    /// `http://127.0.0.1`; set false to have `Secure` cookies travel only over https/wss.
    public var treatsLoopbackAsSecure: Bool

    /// Creates a configuration; every parameter has the documented default.
    public init(
        maxCookiesPerDomain: Int = 50,
        maxCookieSize: Int = 4096,
        maxTotalCookies: Int = 3000,
        persistSessionCookies: Bool = false,
        publicSuffixes: PublicSuffixList = .builtIn,
        acceptsSecureCookiesFromInsecureOrigins: Bool = false,
        treatsLoopbackAsSecure: Bool = true
    ) {
        self.maxCookiesPerDomain = max(1, maxCookiesPerDomain)
        self.maxCookieSize = max(1, maxCookieSize)
        self.maxTotalCookies = max(1, maxTotalCookies)
        self.persistSessionCookies = persistSessionCookies
        self.publicSuffixes = publicSuffixes
        self.acceptsSecureCookiesFromInsecureOrigins = acceptsSecureCookiesFromInsecureOrigins
        self.treatsLoopbackAsSecure = treatsLoopbackAsSecure
    }
}
