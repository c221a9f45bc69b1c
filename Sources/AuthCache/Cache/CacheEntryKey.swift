// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import HTTPTypes

/// Where one stored response lives: the account it belongs to, the method and the target URL.
///
/// The account comes from the ``CacheMiddleware`` that stored the response, never from the
/// request's `Authorization` header, so one user's entries can never answer another user.
/// Header fields named by `Vary` are checked against the stored entry, not keyed: a URL keeps
/// one variant per account and method, and a request with other values replaces it.
struct CacheEntryKey: Hashable, Sendable {
    let account: AccountKey
    let method: HTTPRequest.Method
    let scheme: String
    let authority: String
    let path: String

    /// The key of `request` for `account`; nil when the request has no absolute target.
    init?(account: AccountKey, request: HTTPRequest) {
        guard let scheme = request.scheme, let authority = request.authority else { return nil }
        self.init(account: account, method: request.method, scheme: Self.lowercased(scheme), authority: Self.lowercased(authority), path: request.path ?? "/")
    }

    /// The text in lower case, without making a new string when it already is (the hit path
    /// builds a key for every request).
    private static func lowercased(_ text: String) -> String {
        text.utf8.contains { $0 >= 0x41 && $0 <= 0x5A } ? text.lowercased() : text
    }

    init(account: AccountKey, method: HTTPRequest.Method, scheme: String, authority: String, path: String) {
        self.account = account
        self.method = method
        self.scheme = scheme
        self.authority = authority
        self.path = path
    }

    /// The same target with another method.
    func with(method: HTTPRequest.Method) -> CacheEntryKey {
        CacheEntryKey(account: account, method: method, scheme: scheme, authority: authority, path: path)
    }

    /// The bytes the key holds, counted against the cache's byte budget.
    var byteCount: Int {
        account.namespace.utf8.count + account.account.utf8.count + method.rawValue.utf8.count
            + scheme.utf8.count + authority.utf8.count + path.utf8.count
    }
}
