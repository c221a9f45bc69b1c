// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes

extension AuthRequest {
    /// The absolute URL a transport sends this request to, built from the same parse of the
    /// authority that ``origin`` and ``AllowedHosts`` read.
    ///
    /// A transport must send by this, never by re-reading the head's authority with a URL parser
    /// of its own: then the host and port a credential was checked for are the host and port the
    /// connection goes to. The host is lower-cased, an IPv6 literal bracketed, the port written
    /// only when it is not the scheme's default.
    ///
    /// - Throws: `AuthError.invalidRequest` when the scheme is not http(s) or ws(s), the authority
    ///   is not a plain `host[:port]` (see ``Origin``), or the path does not start with `/` or
    ///   holds a byte a request target may not (space, control, `#`, non-ASCII). The message
    ///   never repeats the authority or path, which may hold a secret.
    public func urlForTransport() throws -> String {
        guard let scheme = head.scheme else { throw AuthError.invalidRequest("the request has no scheme") }
        if let authority = head.authority, Self.isCanonical(authority: authority, scheme: scheme) {
            // The authority as written is already the host field: no need to rebuild it.
            let path = head.path ?? "/"
            guard Self.isOriginFormTarget(path) else { throw Self.badTarget }
            return Self.url(scheme: scheme, host: authority, path: path)
        }
        guard let origin = Origin(head) else {
            throw AuthError.invalidRequest("the request's authority is not a plain host[:port] (no userinfo, escapes or stray delimiters)")
        }
        guard Origin.defaultPort(for: origin.scheme) != 0 else {
            throw AuthError.invalidRequest("the request's scheme is not http, https, ws or wss")
        }
        let path = head.path ?? "/"
        guard Self.isOriginFormTarget(path) else { throw Self.badTarget }
        return Self.url(scheme: origin.scheme, host: origin.hostField, path: path)
    }

    /// `scheme://host` then `path`, in one allocation.
    private static func url(scheme: String, host: String, path: String) -> String {
        var url = scheme
        url.reserveCapacity(scheme.utf8.count + 3 + host.utf8.count + path.utf8.count)
        url += "://"
        url += host
        url += path
        return url
    }

    private static let badTarget = AuthError.invalidRequest(
        "the request's path does not start with / or holds a space, control character, # or non-ASCII byte")

    /// Whether `authority` is exactly what ``Origin/hostField`` makes of it for `scheme`: a known
    /// lower-case scheme, a valid authority whose host has no upper-case letter, and a port, if
    /// any, written without leading zeros and not the scheme's default.
    static func isCanonical(authority: String, scheme: String) -> Bool {
        let defaultPort = Origin.defaultPort(for: scheme)
        guard defaultPort != 0 else { return false }
        var authority = authority
        return authority.withUTF8 { bytes in
            guard let parsed = Authority(bytes) else { return false }
            guard !bytes[parsed.host].contains(where: { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) else { return false }
            // A bracketed host is written bracketed again only when it holds a `:` (IPv6).
            if bytes[0] == UInt8(ascii: "["), !bytes[parsed.host].contains(UInt8(ascii: ":")) { return false }
            guard let port = parsed.port else { return true }
            guard port != defaultPort, let colon = bytes.lastIndex(of: UInt8(ascii: ":")) else { return false }
            return bytes[colon + 1] != UInt8(ascii: "0") || colon + 2 == bytes.count
        }
    }

    /// Whether `path` is an origin-form request target (RFC 9112 §3.2.1) of visible ASCII.
    static func isOriginFormTarget(_ path: String) -> Bool {
        var path = path
        return path.withUTF8 { bytes in
            guard bytes.first == UInt8(ascii: "/") else { return false }
            return bytes.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "#") }
        }
    }
}
