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
        self.scheme = scheme.lowercased()
        self.host = host.lowercased()
        self.port = port ?? Origin.defaultPort(for: self.scheme)
    }

    /// The origin of a request head, or nil when it has no scheme or authority.
    public init?(_ request: HTTPRequest) {
        guard let scheme = request.scheme, let authority = request.authority, !authority.isEmpty else { return nil }
        var host = Substring(authority)
        var port: Int?
        if let at = host.lastIndex(of: "@") { host = host[host.index(after: at)...] }
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return nil }
            let rest = host[host.index(after: close)...]
            if rest.hasPrefix(":") { port = Int(rest.dropFirst()) }
            host = host[host.index(after: host.startIndex)..<close]
        } else if let colon = host.lastIndex(of: ":") {
            port = Int(host[host.index(after: colon)...])
            host = host[..<colon]
        }
        self.init(scheme: scheme, host: String(host), port: port)
    }

    /// Whether the scheme encrypts the connection.
    public var isSecure: Bool { scheme == "https" || scheme == "wss" }

    /// `scheme://host:port`.
    public var description: String { "\(scheme)://\(host.contains(":") ? "[\(host)]" : host):\(port)" }

    static func defaultPort(for scheme: String) -> Int {
        switch scheme {
        case "https", "wss": 443
        case "http", "ws": 80
        default: 0
        }
    }
}
