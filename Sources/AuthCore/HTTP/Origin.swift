// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import HTTPTypes

/// The scheme, host and port a request goes to: what "same origin" compares.
public struct Origin: Hashable, Sendable, CustomStringConvertible {
    /// Lower-cased scheme, such as `https`.
    public var scheme: String
    /// Lower-cased host, without brackets for IPv6.
    public var host: String
    /// The port, explicit or the scheme's default.
    public var port: Int

    /// Creates an origin from its parts.
    public init(scheme: String, host: String, port: Int? = nil) {
        self.scheme = Self.lowercasedASCII(scheme)
        self.host = Self.lowercasedASCII(host)
        self.port = port ?? Origin.defaultPort(for: self.scheme)
    }

    /// The origin of a request head, or nil when it has no scheme or its authority is not a
    /// plain `host[:port]`.
    ///
    /// Read by the same strict parser that transports send by (see
    /// ``AuthRequest/urlForTransport()``), on UTF-8 bytes: this runs for every request
    /// (authentication and redirect checks), and an authority is ASCII.
    public init?(_ request: HTTPRequest) {
        guard let scheme = request.scheme, var authority = request.authority else { return nil }
        let parts: (host: String, port: Int?)? = authority.withUTF8 { bytes in
            Authority(bytes).map { (String(decoding: UnsafeBufferPointer(rebasing: bytes[$0.host]), as: UTF8.self), $0.port) }
        }
        guard let parts else { return nil }
        self.init(scheme: scheme, host: parts.host, port: parts.port)
    }

    /// `text` lower-cased; returned as it is (no copy) when it is ASCII without upper-case letters.
    static func lowercasedASCII(_ text: String) -> String {
        let needsLowercasing = text.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.contains { $0 >= 0x80 || ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z")) }
        }
        return needsLowercasing == false ? text : text.lowercased()
    }

    /// Whether the scheme encrypts the connection.
    public var isSecure: Bool { scheme == "https" || scheme == "wss" }

    /// Whether the host is this machine: an IPv4 literal in `127.0.0.0/8`, `::1` or `localhost`.
    public var isLoopback: Bool { Self.isLoopback(host: host) }

    /// Whether `host` (lower-case, without brackets) is an IPv4 literal in `127.0.0.0/8`, the
    /// IPv6 literal `::1`, or `localhost`. A name such as `127.example.com` is not.
    public static func isLoopback(host: String) -> Bool { Loopback.contains(host) }

    /// The `Host` field value for this origin, as a transport puts it on the wire: the host
    /// (an IPv6 literal bracketed), then `:port` only when the port is not the scheme's default.
    /// A signer that covers the host signs this value when the request has no `Host` field.
    public var hostField: String {
        var copy = host
        let isIPv6 = copy.withUTF8 { $0.contains(UInt8(ascii: ":")) }
        var field = isIPv6 ? "[" + host + "]" : host
        if port != Origin.defaultPort(for: scheme) {
            field += ":"
            field += String(port)
        }
        return field
    }

    /// `scheme://host:port`.
    public var description: String { "\(scheme)://\(host.contains(":") ? "[\(host)]" : host):\(port)" }

    /// The default port of a lower-case `scheme`: 443 for `https` and `wss`, 80 for `http` and
    /// `ws`, 0 for any other scheme. The package's one table of default ports.
    package static func defaultPort(for scheme: String) -> Int {
        switch scheme {
        case "https", "wss": 443
        case "http", "ws": 80
        default: 0
        }
    }
}
