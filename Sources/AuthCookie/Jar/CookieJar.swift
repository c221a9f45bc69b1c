// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Foundation
import Synchronization

/// An RFC 6265 cookie jar: stores `Set-Cookie` responses and builds `Cookie` request headers.
///
/// A `Sendable` final class whose state sits behind a `Mutex`, so every method is synchronous
/// and safe from any thread or task: a middleware can read and update it without an `await`, and
/// no call ever suspends while holding the lock. Cookies are indexed by domain, so building a
/// header looks only at the request host and its parent domains.
///
/// ```swift
/// let jar = CookieJar()
/// let url = URL(string: "https://api.example.com/login")!
/// jar.setCookies(fromHeaderValues: ["sid=abc; Path=/; Secure; HttpOnly"], for: url)
/// let header = jar.cookieHeader(for: URL(string: "https://api.example.com/me")!)  // "sid=abc"
/// ```
///
/// Time is read from the injected `now` closure: expiry, creation and last-access times.
/// The jar's ``description`` and `dump` never show cookie values.
public final class CookieJar: Sendable {
    /// The limits and policies the jar applies.
    public let configuration: CookieJarConfiguration
    /// The jar's clock.
    let now: @Sendable () -> Date
    /// The cookies, behind the lock.
    let state = Mutex(CookieStorage())

    /// Creates an empty jar.
    /// - Parameters:
    ///   - configuration: Limits and policies; the defaults follow RFC 6265 and current browsers.
    ///   - now: The clock used for expiry and for creation and access times.
    public init(configuration: CookieJarConfiguration = .init(), now: @escaping @Sendable () -> Date = { Date() }) {
        self.configuration = configuration
        self.now = now
    }

    /// Creates a jar holding the unexpired cookies of a snapshot.
    public convenience init(
        snapshot: CookieJarSnapshot,
        configuration: CookieJarConfiguration = .init(),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.init(configuration: configuration, now: now)
        restore(snapshot)
    }

    /// Stores one `Set-Cookie` header value received in a response to `url`.
    ///
    /// Besides RFC 6265 §5.3, the jar applies the rules of RFC 6265bis that browsers apply:
    /// - a name starting with `__Secure-` (in any case) needs `Secure` and a secure origin; one
    ///   starting with `__Host-` also needs no `Domain` attribute and `Path=/`;
    /// - a response from an insecure origin cannot overwrite, delete, or shadow (on a deeper
    ///   path or a related domain) an unexpired `Secure` cookie of the same name;
    /// - `SameSite=None` needs `Secure`;
    /// - an attribute value over 1,024 bytes is ignored, and an expiry is capped at 400 days.
    ///
    /// A secure origin is `https` or `wss`, or a loopback host when
    /// ``CookieJarConfiguration/treatsLoopbackAsSecure`` is set.
    /// - Returns: The cookie as stored (already expired when the header deleted a cookie).
    /// - Throws: ``CookieError`` saying why the value was ignored; the jar is then unchanged.
    @discardableResult
    public func setCookie(fromHeaderValue header: String, for url: URL) throws(CookieError) -> Cookie {
        try setCookie(fromHeaderValue: header, for: url, carried: [:])
    }

    /// ``setCookie(fromHeaderValue:for:)`` for an answer to a request that carried the cookies
    /// `carried` (identity to value): a cookie the request carried whose value the jar has changed
    /// since is not replaced (`CookieError` code `.overtaken`). Checked and stored under one lock.
    @discardableResult
    func setCookie(fromHeaderValue header: String, for url: URL, carried: [Cookie.Identity: String]) throws(CookieError) -> Cookie {
        guard let target = RequestTarget(url, loopbackIsSecure: configuration.treatsLoopbackAsSecure) else {
            throw CookieError(code: .invalidURL, message: "the response URL has no host")
        }
        guard let parsed = SetCookie(parsing: header) else {
            throw CookieError(code: .malformed, message: "the Set-Cookie value has no name=value pair, an empty name, or a control character")
        }
        let date = now()
        let cookie = try CookieStorageModel.cookie(from: parsed, target: target, configuration: configuration, now: date)
        try state.withLock { (storage: inout CookieStorage) throws(CookieError) in
            // Checked and stored under one lock, so no Secure cookie can appear in between.
            if !target.isSecure, storage.hasSecureCookie(shadowedBy: cookie, now: date) {
                throw CookieError(code: .shadowsSecureCookie, message: "cookie '\(cookie.name)' came from an insecure origin and would overwrite, shadow or delete a Secure cookie of the same name")
            }
            if let sent = carried[cookie.identity], let held = storage.value(of: cookie.identity), held != sent {
                throw CookieError(code: .overtaken, message: "cookie '\(cookie.name)' changed after the request was sent; the late answer does not replace it")
            }
            storage.store(cookie, configuration: configuration, now: date)
        }
        return cookie
    }

    /// Stores `Set-Cookie` header values received in a response to `url`, in order.
    ///
    /// Values that RFC 6265 and RFC 6265bis say to ignore (malformed, foreign domain, public
    /// suffix, `Secure` from an insecure origin, too large, a `__Secure-` or `__Host-` name
    /// without its requirements, `SameSite=None` without `Secure`, an insecure origin touching a
    /// `Secure` cookie of the same name) are skipped one by one; they never change the jar.
    /// - Returns: How many values were stored.
    @discardableResult
    public func setCookies(fromHeaderValues headers: [String], for url: URL) -> Int {
        setCookies(fromHeaderValues: headers, for: url, carried: [:])
    }

    /// ``setCookies(fromHeaderValues:for:)`` for an answer to a request that carried `carried`
    /// (see ``setCookie(fromHeaderValue:for:carried:)``).
    @discardableResult
    func setCookies(fromHeaderValues headers: [String], for url: URL, carried: [Cookie.Identity: String]) -> Int {
        var stored = 0
        for header in headers where (try? setCookie(fromHeaderValue: header, for: url, carried: carried)) != nil {
            stored += 1
        }
        return stored
    }

    /// The `Cookie` header value for a request to `url`, or nil when no cookie applies.
    ///
    /// Follows RFC 6265 §5.4: host-only cookies go to their exact host, domain cookies to the
    /// domain and its subdomains, paths must path-match, `Secure` cookies go only over a secure
    /// connection and expired cookies never; longer paths come first, then earlier creation.
    /// Sending updates the cookies' last-access time.
    public func cookieHeader(for url: URL) -> String? {
        guard let target = RequestTarget(url, loopbackIsSecure: configuration.treatsLoopbackAsSecure) else { return nil }
        let date = now()
        return state.withLock { storage -> String? in
            storage.withCookiesToSend(to: target, now: date) { storage, matches in
                CookieHeaderBuilder.header(for: matches, in: storage)
            }
        }
    }

    /// The cookies that a request to `url` would send, in header order; marks them accessed.
    public func cookies(for url: URL) -> [Cookie] {
        guard let target = RequestTarget(url, loopbackIsSecure: configuration.treatsLoopbackAsSecure) else { return [] }
        let date = now()
        return state.withLock { $0.withCookiesToSend(to: target, now: date) { storage, matches in matches.map(storage.cookie(at:)) } }
    }

    /// Every unexpired cookie, in creation order.
    public var allCookies: [Cookie] {
        let date = now()
        return state.withLock { $0.allCookies }.filter { !$0.isExpired(at: date) }
    }

    /// The number of cookies held, expired ones not yet removed included.
    public var count: Int { state.withLock { $0.count } }

    /// A number that changes whenever a cookie is stored, replaced or removed; sending cookies
    /// does not change it. Lets a caller save the jar only after a change.
    public var generation: UInt64 { state.withLock { $0.generation } }

    /// The sign-in (``CookieSessionCredential/signInID``) whose session the jar's cookies hold:
    /// set by a ``CookieSessionStrategy`` when it signs in or refreshes, and by
    /// ``restore(_:)`` from a snapshot; nil for a jar outside a cookie session, and once emptied.
    /// A ``CookieJarStore`` never saves a jar over the record of another session.
    public var session: UUID? { state.withLock { $0.session } }

    /// Marks the cookies as the session of the sign-in `id`.
    func holdSession(_ id: UUID?) {
        state.withLock { $0.session = id }
    }

    /// Removes every cookie (and with them the ``session``).
    public func removeAll() {
        state.withLock { $0.removeAll() }
    }

    /// Removes the cookies that have expired by now.
    public func removeExpired() {
        let date = now()
        state.withLock { $0.removeExpired(now: date) }
    }
}
