// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Foundation
public import AuthCore
import HTTPTypes
import Synchronization

extension CookieJar {
    /// The jar's unexpired cookies as a `Codable` value; session cookies are included only when
    /// ``CookieJarConfiguration/persistSessionCookies`` is set.
    public func snapshot() -> CookieJarSnapshot {
        let keepSessions = configuration.persistSessionCookies
        let date = now()
        return state.withLock { storage in
            let cookies = storage.allCookies.filter { !$0.isExpired(at: date) && (keepSessions || $0.isPersistent) }
            return CookieJarSnapshot(cookies: cookies, session: storage.session)
        }
    }

    /// Replaces the jar's contents, and its ``session``, with the unexpired cookies of
    /// `snapshot` and its session.
    ///
    /// Session cookies in the snapshot are kept (the snapshot's writer chose to save them); the
    /// jar's limits apply as if the cookies were stored one by one in creation order.
    public func restore(_ snapshot: CookieJarSnapshot) {
        let date = now()
        let configuration = configuration
        let cookies = snapshot.cookies.enumerated()
            .filter { !$0.element.isExpired(at: date) }
            .sorted { ($0.element.creationTime, $0.offset) < ($1.element.creationTime, $1.offset) }
            .map(\.element)
        state.withLock { storage in
            storage.removeAll()
            for cookie in cookies { storage.store(cookie, configuration: configuration, now: date) }
            storage.session = snapshot.session
        }
    }

    /// Stores every `Set-Cookie` field of `response`, received for a request to `url`.
    /// - Returns: How many cookies were stored.
    @discardableResult
    public func setCookies(from response: AuthResponse, for url: URL) -> Int {
        setCookies(fromHeaderValues: response.head.headerFields[values: .setCookie], for: url)
    }
}

extension CookieJar: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The number of cookies; never names or values.
    public var description: String { "CookieJar(\(count) cookies)" }

    /// The number of cookies and each cookie's redacted description.
    public var debugDescription: String { "CookieJar(\(allCookies.map(\.description)))" }

    /// The configuration and the cookies, whose own mirrors hide their values.
    public var customMirror: Mirror {
        Mirror(self, children: ["configuration": configuration, "cookies": allCookies], displayStyle: .class)
    }
}
