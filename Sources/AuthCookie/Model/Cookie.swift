// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Foundation

/// A cookie as the jar stores it: the storage model of RFC 6265 §5.3.
///
/// Its ``description``, `debugDescription` and `dump` show the name, domain, path and flags but
/// never the value, which is a secret (a session id, a CSRF token).
///
/// ```swift
/// for cookie in jar.cookies(for: url) {
///     print(cookie)  // Cookie(sid=<redacted>; Domain=example.com; Path=/; Secure; HttpOnly)
/// }
/// ```
public struct Cookie: Sendable, Hashable, Codable {
    /// The cookie name.
    public var name: String
    /// The cookie value, as the server sent it (quotes included).
    public var value: String
    /// The domain the cookie belongs to: the request host for a host-only cookie, else the
    /// `Domain` attribute; lower-cased, without a leading dot.
    public var domain: String
    /// The path the cookie applies to (§5.1.4).
    public var path: String
    /// When the cookie expires; nil for a session cookie (no `Expires` nor `Max-Age`).
    public var expiresAt: Date?
    /// When a cookie of this name, domain and path was first stored; kept on replacement.
    public var creationTime: Date
    /// When the cookie was last stored or sent.
    public var lastAccessTime: Date
    /// Whether the cookie is sent only to its exact ``domain`` (no `Domain` attribute was given).
    public var isHostOnly: Bool
    /// Whether the cookie is sent only over secure connections.
    public var isSecure: Bool
    /// Whether the cookie had `HttpOnly`; this jar is an HTTP API, so it only records it.
    public var isHTTPOnly: Bool
    /// The `SameSite` value as parsed; nil when unset or unknown (see ``SameSite``).
    public var sameSite: SameSite?

    /// The order in which cookies were created, breaking ties between equal creation times.
    var sequence: UInt64 = 0

    /// Creates a cookie from its parts.
    public init(
        name: String, value: String, domain: String, path: String = "/", expiresAt: Date? = nil,
        creationTime: Date, lastAccessTime: Date? = nil, isHostOnly: Bool = true,
        isSecure: Bool = false, isHTTPOnly: Bool = false, sameSite: SameSite? = nil
    ) {
        self.name = name
        self.value = value
        self.domain = domain
        self.path = path
        self.expiresAt = expiresAt
        self.creationTime = creationTime
        self.lastAccessTime = lastAccessTime ?? creationTime
        self.isHostOnly = isHostOnly
        self.isSecure = isSecure
        self.isHTTPOnly = isHTTPOnly
        self.sameSite = sameSite
    }

    /// Whether the cookie outlives the session: it had `Expires` or `Max-Age`.
    public var isPersistent: Bool { expiresAt != nil }

    /// Whether the cookie has expired at `date` (its expiry is at or before it).
    public func isExpired(at date: Date) -> Bool {
        guard let expiresAt else { return false }
        return expiresAt <= date
    }

    /// Name, domain and path: what identifies a cookie in the jar (§5.3 step 11).
    var identity: Identity { Identity(name: name, domain: domain, path: path) }

    /// The (name, domain, path) triple a new cookie replaces.
    struct Identity: Hashable {
        var name: String
        var domain: String
        var path: String
    }

    /// Creation order: earlier creation time, then earlier insertion.
    static func creationOrder(_ lhs: Cookie, _ rhs: Cookie) -> Bool {
        if lhs.creationTime != rhs.creationTime { return lhs.creationTime < rhs.creationTime }
        return lhs.sequence < rhs.sequence
    }

    /// Eviction order: least recently accessed first, then earliest created.
    static func evictionOrder(_ lhs: Cookie, _ rhs: Cookie) -> Bool {
        if lhs.lastAccessTime != rhs.lastAccessTime { return lhs.lastAccessTime < rhs.lastAccessTime }
        return creationOrder(lhs, rhs)
    }

    /// Compares every property (not the jar's internal insertion order).
    public static func == (lhs: Cookie, rhs: Cookie) -> Bool {
        lhs.name == rhs.name && lhs.value == rhs.value && lhs.domain == rhs.domain
            && lhs.path == rhs.path && lhs.expiresAt == rhs.expiresAt
            && lhs.creationTime == rhs.creationTime && lhs.lastAccessTime == rhs.lastAccessTime
            && lhs.isHostOnly == rhs.isHostOnly && lhs.isSecure == rhs.isSecure
            && lhs.isHTTPOnly == rhs.isHTTPOnly && lhs.sameSite == rhs.sameSite
    }

    /// Hashes the identity (name, domain, path) and the value.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(domain)
        hasher.combine(path)
        hasher.combine(value)
    }

    private enum CodingKeys: String, CodingKey {
        case name, value, domain, path, expiresAt, creationTime, lastAccessTime
        case isHostOnly, isSecure, isHTTPOnly, sameSite
    }
}

extension Cookie: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Name, domain, path and flags; the value is redacted.
    public var description: String {
        var text = "Cookie(\(name)=<redacted>; \(isHostOnly ? "Host" : "Domain")=\(domain); Path=\(path)"
        if let expiresAt { text += "; Expires=\(expiresAt)" }
        if isSecure { text += "; Secure" }
        if isHTTPOnly { text += "; HttpOnly" }
        if let sameSite { text += "; SameSite=\(sameSite)" }
        return text + ")"
    }

    /// Same as ``description``.
    public var debugDescription: String { description }

    /// Every property but the value, for `dump` and debuggers.
    public var customMirror: Mirror {
        Mirror(self, children: [
            "name": name, "value": "<redacted>", "domain": domain, "path": path,
            "expiresAt": expiresAt as Any, "creationTime": creationTime,
            "lastAccessTime": lastAccessTime, "isHostOnly": isHostOnly, "isSecure": isSecure,
            "isHTTPOnly": isHTTPOnly, "sameSite": sameSite as Any,
        ], displayStyle: .struct)
    }
}
