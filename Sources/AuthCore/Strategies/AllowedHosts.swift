// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Foundation

/// The origins a credential may be sent to.
///
/// A pattern is a host (`api.example.com`) or all its subdomains (`*.example.com`), optionally
/// with a port (`api.example.com:8443`, or `127.0.0.1:*` for any port). Without a port, only the
/// scheme's default port matches (443 for https, 80 for http), so a redirect to another port of
/// the same host — another origin — gets no credential. Unless `allowInsecure` is set, only https
/// is allowed; loopback hosts (`localhost`, an IPv4 literal in `127.0.0.0/8`, `::1`) are allowed
/// over http for local development and tests. A request whose authority is not a plain
/// `host[:port]` (userinfo, percent-escapes, stray `?#/@\`) is never allowed: see ``Origin``.
///
/// A redirect to an origin outside the credential's hosts gets no credential; and on any hop to
/// another origin, only the headers of ``RedirectMiddleware/crossOriginSafelist`` carry over
/// (plus those a request names in ``RequestOptions/headersForEveryOrigin``): a key a caller added
/// by hand as an ordinary header does not follow either.
///
/// ```swift
/// let hosts = AllowedHosts(["api.example.com", "*.example.com"])
/// let local = AllowedHosts(origin: URL(string: "http://127.0.0.1:8080")!)
/// ```
public struct AllowedHosts: Sendable, Equatable {
    struct Pattern: Sendable, Equatable {
        enum Port: Sendable, Equatable { case schemeDefault, any, exactly(Int) }
        let host: String
        /// Whether the pattern was `*.host`: any subdomain of `host`, not `host` itself.
        let subdomains: Bool
        let port: Port

        init(_ text: String) {
            let text = Substring(text.lowercased())
            var host = text
            var portText: Substring?
            if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
                host = text[text.index(after: text.startIndex)..<close]
                let rest = text[text.index(after: close)...]
                if rest.hasPrefix(":") { portText = rest.dropFirst() }
            } else if let colon = text.firstIndex(of: ":"), text.lastIndex(of: ":") == colon {
                host = text[..<colon]
                portText = text[text.index(after: colon)...]
            }
            switch portText {
            case nil: port = .schemeDefault
            case "*"?: port = .any
            case let digits?: port = Int(digits).map(Port.exactly) ?? .schemeDefault
            }
            subdomains = host.hasPrefix("*.")
            self.host = String(subdomains ? host.dropFirst(1) : host)
        }

        func matches(_ origin: Origin) -> Bool {
            let hostMatches = subdomains ? (origin.host.hasSuffix(host) && origin.host.utf8.count > host.utf8.count) : origin.host == host
            let portMatches = switch port {
            case .any: true
            case .exactly(let port): origin.port == port
            case .schemeDefault: origin.port == Origin.defaultPort(for: origin.scheme)
            }
            return hostMatches && portMatches
        }
    }

    private let patterns: [Pattern]
    /// Whether plain http is allowed for non-loopback hosts.
    public let allowInsecure: Bool

    /// Allows the given host patterns.
    public init(_ patterns: [String], allowInsecure: Bool = false) {
        self.patterns = patterns.map(Pattern.init)
        self.allowInsecure = allowInsecure
    }

    /// Allows the host and port of `url` (over https, or http for a loopback host or with
    /// `allowInsecure`; never http as the continuation of an https request, see
    /// ``CredentialScope``).
    public init(origin url: URL, allowInsecure: Bool = false) {
        let port = url.port.map { ":\($0)" } ?? ""
        let host = url.host.map { $0.contains(":") ? "[\($0)]" : $0 } ?? ""
        self.init([host + port], allowInsecure: allowInsecure)
    }

    /// Whether a credential may be sent to `origin`.
    public func allows(_ origin: Origin) -> Bool {
        guard patterns.contains(where: { $0.matches(origin) }) else { return false }
        return origin.isSecure || allowInsecure || origin.isLoopback
    }

    /// Whether a credential may be sent with `request`: the answer for its ``AuthRequest/origin``,
    /// read by ``Origin/init(_:)`` (the parser ``AuthRequest/urlForTransport()`` sends by); false
    /// when the request has no readable origin.
    public func allows(_ request: AuthRequest) -> Bool {
        request.origin.map(allows) ?? false
    }
}
