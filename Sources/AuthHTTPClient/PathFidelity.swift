// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Foundation

/// The request target AsyncHTTPClient puts on the wire for a URL string.
///
/// AsyncHTTPClient takes the URL as a string, parses it with Foundation's `URL`, and writes the
/// target from that parse: the path as `URLComponents` spells it (`/` whenever `URL.path` is
/// empty, which it is when the path's escapes decode to bytes that are not UTF-8, such as
/// `/photos/a%FF.jpg`), then `?` and the query as `URL` keeps it. Foundation percent-encodes the
/// bytes a URL may not hold (`"`, `<`, `>`, `[`, `\`, `]`, `^`, `` ` ``, `{`, `|`, `}`, a `%` not
/// followed by two hex digits).
///
/// The transport computes that target from the same parse and compares it with the request's, so
/// a request goes out with exactly the target it was built (and signed) with, or not at all. A
/// request sent with another target would reach another resource, or carry a signature that
/// covers a target other than the one sent.
///
/// Most targets hold none of the bytes Foundation re-encodes and no `%`: Foundation keeps those
/// byte for byte (``AuthCore/AuthRequest/urlForTransport()`` has already refused spaces, control
/// bytes, `#` and non-ASCII, and a strictly parsed authority cannot move where the path starts),
/// so ``sendsAsWritten(_:in:)`` parses only a target that holds one of them.
/// `TargetFidelityTests` holds the two ways to each other over many targets.
enum PathFidelity {
    /// Whether AsyncHTTPClient sends `target` byte for byte for `url` (which ends with it).
    static func sendsAsWritten(_ target: String, in url: String) -> Bool {
        if target.utf8.allSatisfy(isKeptAsWritten) { return true }
        return targetSent(for: url) == target
    }

    /// Printable ASCII that Foundation keeps as written in a path or query: RFC 3986's
    /// unreserved and sub-delimiter characters and `/ ? : @`. Not the ones it re-encodes (listed
    /// above), and not `%` (an escape of bytes that are not UTF-8 makes the path `/`; a `%`
    /// without two hex digits is re-encoded): a target with one of those goes through the parse.
    static func isKeptAsWritten(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"), UInt8(ascii: "?"),
             UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"),
             UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"),
             UInt8(ascii: "="):
            return true
        default:
            return false
        }
    }

    /// The target AsyncHTTPClient sends for `url` (as `HTTPClientRequest(url:)` takes it); nil
    /// when Foundation cannot parse it. Mirrors AsyncHTTPClient's `URL.uri` (1.x).
    static func targetSent(for url: String) -> String? {
        guard let parsed = URL(string: url) else { return nil }
        var target = parsed.path.isEmpty
            ? "/" : (URLComponents(url: parsed, resolvingAgainstBaseURL: true)?.percentEncodedPath ?? parsed.path)
        if let query = parsed.query { target += "?" + query }
        return target
    }
}
