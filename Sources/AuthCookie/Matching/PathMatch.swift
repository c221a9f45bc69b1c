// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore

/// The cookie paths of RFC 6265 §5.1.4.
enum PathMatch {
    /// The default-path of a request path: `/` when it is empty, does not start with `/` or has
    /// only one `/`; otherwise everything up to, not including, its last `/`.
    static func defaultPath(of requestPath: String) -> String {
        let bytes = requestPath.utf8
        guard bytes.first == UInt8(ascii: "/"),
              let lastSlash = bytes.lastIndex(of: UInt8(ascii: "/")),
              lastSlash != bytes.startIndex
        else { return "/" }
        return String(requestPath[..<lastSlash])
    }

    /// Whether `requestPath` path-matches `cookiePath`: identical, or `cookiePath` is a prefix
    /// of it that ends with `/` or is followed by `/` in `requestPath`.
    static func matches(requestPath: String, cookiePath: String) -> Bool {
        let request = requestPath.utf8, cookie = cookiePath.utf8
        guard request.count >= cookie.count, request.starts(with: cookie) else { return false }
        if request.count == cookie.count || cookie.last == UInt8(ascii: "/") { return true }
        return request[request.index(request.startIndex, offsetBy: cookie.count)] == UInt8(ascii: "/")
    }

    /// The same rule over the request path's UTF-8 bytes, for the header-building loop.
    static func matches(requestPath request: UnsafeBufferPointer<UInt8>, cookiePath: String) -> Bool {
        withUTF8Bytes(cookiePath) { cookie in
            guard request.count >= cookie.count else { return false }
            for offset in 0..<cookie.count where request[offset] != cookie[offset] { return false }
            if request.count == cookie.count || cookie.last == UInt8(ascii: "/") { return true }
            return request[cookie.count] == UInt8(ascii: "/")
        }
    }
}
