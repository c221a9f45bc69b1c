/// The domains under which anyone can register names ("public suffixes"), on which no cookie may
/// be set (RFC 6265 §5.3 step 5).
///
/// Every single-label domain (every bare top-level domain such as `com`, `org` or `uk`, and
/// names like `localhost`) is a public suffix. On top of that, ``builtIn`` lists common
/// multi-label suffixes of country registries and shared hosting platforms; it is a small subset
/// of the Mozilla Public Suffix List (<https://publicsuffix.org>), without its wildcard and
/// exception rules. An application that needs the full list can load it and pass the rules it
/// wants with ``init(suffixes:)`` or ``adding(_:)``.
///
/// A cookie whose `Domain` is a public suffix is rejected, except when the domain equals the
/// request host: it is then stored as a host-only cookie, as the RFC says.
///
/// ```swift
/// var suffixes = PublicSuffixList.builtIn.adding(["myplatform.dev"])
/// suffixes.isPublicSuffix("co.uk")          // true
/// suffixes.isPublicSuffix("example.co.uk")  // false
/// ```
public struct PublicSuffixList: Sendable, Hashable {
    /// The multi-label suffixes, lower-cased, without leading dots.
    public private(set) var suffixes: Set<String>

    /// Creates a list from multi-label suffixes (single labels are always public suffixes).
    public init(suffixes: some Sequence<String>) {
        self.suffixes = Set(suffixes.map { Self.normalized($0) })
    }

    /// The list with `more` suffixes added.
    public func adding(_ more: some Sequence<String>) -> PublicSuffixList {
        var copy = self
        copy.suffixes.formUnion(more.map { Self.normalized($0) })
        return copy
    }

    /// Whether `domain` (canonical: lower-case, no leading dot) is a public suffix.
    public func isPublicSuffix(_ domain: String) -> Bool {
        if domain.isEmpty || !domain.utf8.contains(UInt8(ascii: ".")) { return true }
        return suffixes.contains(domain)
    }

    private static func normalized(_ suffix: String) -> String {
        (suffix.hasPrefix(".") ? String(suffix.dropFirst()) : suffix).lowercased()
    }

    /// Bare top-level domains plus common multi-label suffixes (second-level registries of
    /// .uk, .au, .jp, .nz, .br, .cn, .in, .kr, .za, .il, .tr, .mx, .ar, .sg, .hk, .tw and
    /// hosting platforms such as github.io, herokuapp.com, vercel.app, netlify.app,
    /// pages.dev, workers.dev, appspot.com, blogspot.com, cloudfront.net, azurewebsites.net).
    public static let builtIn = PublicSuffixList(suffixes: [
        // United Kingdom
        "co.uk", "org.uk", "ac.uk", "gov.uk", "ltd.uk", "plc.uk", "me.uk", "net.uk", "sch.uk", "nhs.uk",
        // Australia
        "com.au", "net.au", "org.au", "edu.au", "gov.au", "asn.au", "id.au",
        // Japan
        "co.jp", "ne.jp", "or.jp", "ac.jp", "go.jp", "ad.jp", "ed.jp", "gr.jp", "lg.jp",
        // New Zealand
        "co.nz", "net.nz", "org.nz", "ac.nz", "govt.nz", "geek.nz", "school.nz",
        // Brazil
        "com.br", "net.br", "org.br", "gov.br", "edu.br",
        // China, Hong Kong, Taiwan
        "com.cn", "net.cn", "org.cn", "gov.cn", "edu.cn", "com.hk", "org.hk", "com.tw", "org.tw",
        // India, Korea, Singapore
        "co.in", "net.in", "org.in", "gov.in", "ac.in", "co.kr", "or.kr", "ne.kr", "go.kr", "ac.kr",
        "com.sg", "org.sg", "edu.sg", "gov.sg",
        // Others
        "co.za", "org.za", "gov.za", "co.il", "org.il", "ac.il", "com.tr", "org.tr", "gov.tr",
        "com.mx", "org.mx", "gob.mx", "com.ar", "org.ar", "gob.ar", "com.es", "com.pl", "co.id",
        "com.my", "com.ph", "com.vn", "co.th", "com.sa", "com.eg", "com.ng", "co.ke",
        // Hosting platforms (private section of the Public Suffix List)
        "github.io", "githubusercontent.com", "herokuapp.com", "herokussl.com", "vercel.app",
        "netlify.app", "pages.dev", "workers.dev", "appspot.com", "blogspot.com", "firebaseapp.com",
        "web.app", "cloudfront.net", "azurewebsites.net", "s3.amazonaws.com", "fly.dev",
        "onrender.com", "glitch.me", "gitlab.io",
    ])
}
