/// The origins a credential may be sent to.
///
/// A credential is attached only to requests whose host matches one of the patterns (exact, or
/// `*.example.com` for subdomains) and, unless `allowInsecure` is set, only over https; loopback
/// hosts (`localhost`, `127.0.0.1`, `::1`) are allowed over http for local development and tests.
///
/// ```swift
/// let hosts = AllowedHosts(["api.example.com", "*.example.com"])
/// ```
public struct AllowedHosts: Sendable, Equatable {
    private let exact: Set<String>
    private let suffixes: [String]
    /// Whether plain http is allowed for non-loopback hosts.
    public let allowInsecure: Bool

    /// Allows the given host patterns.
    public init(_ patterns: [String], allowInsecure: Bool = false) {
        var exact: Set<String> = []
        var suffixes: [String] = []
        for pattern in patterns.map({ $0.lowercased() }) {
            if pattern.hasPrefix("*.") { suffixes.append(String(pattern.dropFirst(1))) } else { exact.insert(pattern) }
        }
        self.exact = exact
        self.suffixes = suffixes
        self.allowInsecure = allowInsecure
    }

    /// Whether a credential may be sent to `origin`.
    public func allows(_ origin: Origin) -> Bool {
        let host = origin.host
        let hostMatches = exact.contains(host) || suffixes.contains { host.hasSuffix($0) && host.count > $0.count }
        guard hostMatches else { return false }
        return origin.isSecure || allowInsecure || Self.isLoopback(host)
    }

    /// Whether a credential may be sent with `request`.
    public func allows(_ request: AuthRequest) -> Bool {
        request.origin.map(allows) ?? false
    }

    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }
}
