public import Foundation
import HTTPTypes

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
/// ```swift
/// let hosts = AllowedHosts(["api.example.com", "*.example.com"])
/// let local = AllowedHosts(origin: URL(string: "http://127.0.0.1:8080")!)
/// ```
public struct AllowedHosts: Sendable, Equatable {
    struct Pattern: Sendable, Equatable {
        enum Port: Sendable, Equatable { case schemeDefault, any, exactly(Int) }
        let host: String
        /// `host`'s bytes, for matching a request without building its ``Origin``.
        let hostBytes: [UInt8]
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
            hostBytes = Array(self.host.utf8)
        }

        func matches(_ origin: Origin) -> Bool {
            let hostMatches = subdomains ? (origin.host.hasSuffix(host) && origin.host.utf8.count > host.utf8.count) : origin.host == host
            return hostMatches && matches(port: origin.port, defaultPort: Origin.defaultPort(for: origin.scheme))
        }

        /// ``matches(_:)`` for a lower-case ASCII host given as bytes.
        func matches(asciiHost: UnsafeBufferPointer<UInt8>, port: Int, defaultPort: Int) -> Bool {
            let hostMatches = hostBytes.withUnsafeBufferPointer { pattern in
                if subdomains {
                    asciiHost.count > pattern.count
                        && AllowedHosts.equal(UnsafeBufferPointer(rebasing: asciiHost[(asciiHost.count - pattern.count)...]), pattern)
                } else {
                    AllowedHosts.equal(asciiHost, pattern)
                }
            }
            return hostMatches && matches(port: port, defaultPort: defaultPort)
        }

        private func matches(port actual: Int, defaultPort: Int) -> Bool {
            switch port {
            case .any: true
            case .exactly(let port): actual == port
            case .schemeDefault: actual == defaultPort
            }
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
        return origin.isSecure || allowInsecure || Self.isLoopback(origin.host)
    }

    /// Whether a credential may be sent with `request`.
    ///
    /// The same answer as `allows(request.origin)`, found on the authority's bytes for the usual
    /// case of a lower-case ASCII host, so that the check costs no allocation on every request.
    public func allows(_ request: AuthRequest) -> Bool {
        guard let scheme = request.head.scheme, var authority = request.head.authority else { return false }
        let fast: Bool? = authority.withUTF8 { bytes in
            guard let parts = Authority(bytes) else { return false }
            let host = UnsafeBufferPointer(rebasing: bytes[parts.host])
            guard let kind = SchemeKind(scheme), Self.isLowercaseASCII(host) else { return nil }
            let port = parts.port ?? kind.defaultPort
            guard patterns.contains(where: { $0.matches(asciiHost: host, port: port, defaultPort: kind.defaultPort) }) else { return false }
            return kind.isSecure || allowInsecure || Self.isLoopback(host)
        }
        return fast ?? request.origin.map(allows) ?? false
    }

    /// The schemes the byte-level check knows, with what ``Origin`` derives from them.
    private enum SchemeKind {
        case https, http, wss, ws

        /// Recognises an exactly lower-case known scheme; nil sends the caller to the general path.
        init?(_ scheme: String) {
            switch scheme {
            case "https": self = .https
            case "http": self = .http
            case "wss": self = .wss
            case "ws": self = .ws
            default: return nil
            }
        }

        var defaultPort: Int { self == .https || self == .wss ? 443 : 80 }
        var isSecure: Bool { self == .https || self == .wss }
    }

    static func isLoopback(_ host: UnsafeBufferPointer<UInt8>) -> Bool {
        Loopback.contains(host)
    }

    /// Whether `bytes` has no upper-case letter and no byte outside ASCII.
    static func isLowercaseASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in bytes where byte >= 0x80 || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) { return false }
        return true
    }

    /// Whether two byte runs are equal.
    static func equal(_ lhs: UnsafeBufferPointer<UInt8>, _ rhs: UnsafeBufferPointer<UInt8>) -> Bool {
        guard lhs.count == rhs.count else { return false }
        guard let left = lhs.baseAddress, let right = rhs.baseAddress else { return true }
        return memcmp(left, right, lhs.count) == 0
    }

    static func isLoopback(_ host: String) -> Bool {
        Loopback.contains(host)
    }
}
