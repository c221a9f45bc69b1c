// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Foundation

/// The contents of a ``CookieJar`` at one moment, as a `Codable` value for persistence.
///
/// Expired cookies are never included; session cookies only when the jar's configuration has
/// ``CookieJarConfiguration/persistSessionCookies``. Cookies are listed in creation order.
/// Its ``description`` and `dump` show names and domains, never values.
///
/// ```swift
/// let data = try JSONEncoder().encode(jar.snapshot())
/// let restored = CookieJar(snapshot: try JSONDecoder().decode(CookieJarSnapshot.self, from: data))
/// ```
public struct CookieJarSnapshot: Sendable, Hashable, Codable {
    /// The version of this format; ``currentFormatVersion`` when written by this code.
    public var formatVersion: Int
    /// The cookies, in creation order.
    public var cookies: [Cookie]
    /// The sign-in whose session the cookies hold (``CookieJar/session``); nil outside a cookie
    /// session, and in records written before it was kept.
    public var session: UUID?

    /// The format version this code writes and reads.
    public static let currentFormatVersion = 1

    /// Creates a snapshot.
    /// - Parameters:
    ///   - cookies: The cookies, in creation order.
    ///   - session: The sign-in whose session they hold, if any.
    ///   - formatVersion: The format's version.
    public init(cookies: [Cookie], session: UUID? = nil, formatVersion: Int = CookieJarSnapshot.currentFormatVersion) {
        self.formatVersion = formatVersion
        self.cookies = cookies
        self.session = session
    }
}

extension CookieJarSnapshot: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The number of cookies and their redacted descriptions.
    public var description: String {
        "CookieJarSnapshot(formatVersion: \(formatVersion), \(cookies.count) cookies: \(cookies))"
    }

    /// Same as ``description``.
    public var debugDescription: String { description }

    /// The format version and the cookies, whose own mirrors hide their values.
    public var customMirror: Mirror {
        Mirror(self, children: ["formatVersion": formatVersion, "cookies": cookies], displayStyle: .struct)
    }
}
