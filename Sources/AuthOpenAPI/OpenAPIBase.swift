// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Foundation

/// A generated client's server URL, read once per call by AuthKit's one-pass URL parser.
struct OpenAPIBase {
    /// The server URL as the generated client gave it.
    let url: URL
    let scheme: String
    let authority: String
    /// The server URL's path without a trailing `/` (empty for none).
    let path: String
    /// Whether `url` is exactly `scheme://authority` and ``path``, so that an OpenAPI transport
    /// joining it with an operation's path sends the target AuthKit built (and signed); false for
    /// a URL ending in `/`, which such a transport would join into `//`.
    let isExact: Bool

    /// - Throws: `AuthError.invalidRequest` when the URL has no scheme or host, or holds user
    ///   information, a query or a fragment (a server URL names a place, not a request).
    init(_ url: URL) throws {
        let text = url.absoluteString
        guard let parts = URLRequestParts.of(url), !Self.holdsUserInfoQueryOrFragment(text) else {
            throw AuthError.invalidRequest("the client's server URL has no scheme or host, or holds user information, a query or a fragment")
        }
        self.url = url
        scheme = parts.scheme
        authority = parts.authority
        var path = parts.target
        while path.hasSuffix("/") { path.removeLast() }
        self.path = path
        isExact = !text.hasSuffix("/")
    }

    /// Whether `text` (an absolute URL) has `@` in its authority, or a `?` or `#` anywhere.
    private static func holdsUserInfoQueryOrFragment(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            if bytes.contains(UInt8(ascii: "?")) || bytes.contains(UInt8(ascii: "#")) { return true }
            guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return false }
            let afterScheme = bytes[(colon + 1)...].drop { $0 == UInt8(ascii: "/") }
            let authority = afterScheme.prefix { $0 != UInt8(ascii: "/") }
            return authority.contains(UInt8(ascii: "@"))
        }
    }

    /// The target of an operation's `path` (path and query, starting with `/`) under this URL.
    func target(_ operationPath: String?) throws -> String {
        let operationPath = operationPath ?? "/"
        guard operationPath.hasPrefix("/") else {
            throw AuthError.invalidRequest("the operation's path does not start with /")
        }
        return path + operationPath
    }

    /// The operation path of `target` on `scheme://authority` relative to this URL, when the
    /// request still goes where the client pointed it (no redirect elsewhere); nil otherwise.
    func operationPath(scheme: String?, authority: String?, target: String) -> String? {
        guard scheme == self.scheme, authority == self.authority, target.hasPrefix(path) else { return nil }
        let rest = target.dropFirst(path.count)
        guard rest.hasPrefix("/") else { return nil }
        return String(rest)
    }
}
