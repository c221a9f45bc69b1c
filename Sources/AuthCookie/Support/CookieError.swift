/// Why the jar did not store a `Set-Cookie` value.
///
/// ``CookieJar/setCookie(fromHeaderValue:for:)`` throws it; the bulk and middleware paths ignore
/// rejected cookies, as RFC 6265 and RFC 6265bis say ("ignore the cookie entirely"). The message
/// names the cookie and the rule it broke, never its value.
public struct CookieError: Error, Sendable, CustomStringConvertible {
    /// What kind of rejection this is.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let raw: String
        private init(_ raw: String) { self.raw = raw }
        /// The value is not a cookie (no `=`, an empty name, a control character).
        public static let malformed = Code("malformed")
        /// The request URL has no host, so there is no origin to store the cookie for.
        public static let invalidURL = Code("invalidURL")
        /// The `Domain` attribute does not domain-match the request host.
        public static let domainMismatch = Code("domainMismatch")
        /// The `Domain` attribute is a public suffix (such as `com` or `co.uk`).
        public static let publicSuffix = Code("publicSuffix")
        /// A `Secure` cookie came from an insecure origin.
        public static let insecureOrigin = Code("insecureOrigin")
        /// The name and value are longer than the jar's per-cookie limit.
        public static let tooLarge = Code("tooLarge")
        /// The name starts with `__Secure-` or `__Host-` (in any case) and the cookie does not
        /// meet that prefix's requirements (RFC 6265bis §4.1.3).
        public static let invalidPrefix = Code("invalidPrefix")
        /// An insecure origin tried to overwrite, shadow or delete a `Secure` cookie of the same
        /// name ("leave secure cookies alone", RFC 6265bis §5.7).
        public static let shadowsSecureCookie = Code("shadowsSecureCookie")
        /// The cookie has `SameSite=None` but not `Secure` (RFC 6265bis §5.7).
        public static let sameSiteNoneWithoutSecure = Code("sameSiteNoneWithoutSecure")
        /// A text form of the code.
        public var description: String { raw }
    }

    /// What kind of rejection this is.
    public let code: Code
    /// A readable cause, free of cookie values.
    public let message: String

    /// Creates an error.
    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    /// `CookieError.code: message`.
    public var description: String { "CookieError.\(code): \(message)" }
}
