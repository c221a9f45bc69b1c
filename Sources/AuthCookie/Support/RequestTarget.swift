// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// The parts of a request URL that cookie rules look at.
struct RequestTarget {
    /// The canonical host: lower-cased, IPv6 without brackets.
    var host: String
    /// The percent-encoded path; `/` when the URL has none.
    var path: String
    /// Whether the scheme is `https` or `wss` (or the host is loopback and the jar treats
    /// loopback as secure).
    var isSecure: Bool
    /// Whether the host is an IP address literal.
    var isIPAddress: Bool

    /// Reads a URL; nil when it has no host.
    init?(_ url: URL, loopbackIsSecure: Bool) {
        let url = url.absoluteURL
        guard let rawHost = url.host(percentEncoded: true), !rawHost.isEmpty else { return nil }
        host = DomainMatch.canonicalHost(rawHost)
        let rawPath = url.path(percentEncoded: true)
        path = rawPath.isEmpty ? "/" : rawPath
        switch url.scheme?.lowercased() {
        case "https", "wss": isSecure = true
        default: isSecure = loopbackIsSecure && DomainMatch.isLoopback(host)
        }
        isIPAddress = DomainMatch.isIPAddress(host)
    }
}
