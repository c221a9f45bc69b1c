/// The errors a ``RequestSigner`` throws when a request cannot be signed.
///
/// Compare codes: `error.code == .invalidRequest`. The ``message`` names what was wrong with the
/// request or configuration; it never contains a key or a secret.
public struct SigningError: Error, Sendable, CustomStringConvertible {
    /// What kind of signing failure this is.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let raw: String
        private init(_ raw: String) { self.raw = raw }
        /// The request lacks a part the signer needs (scheme, authority, path, a covered field).
        public static let invalidRequest = Code("invalidRequest")
        /// The signer's configuration is not usable (bad header name, empty key id, bad key).
        public static let invalidConfiguration = Code("invalidConfiguration")
        /// A covered component or parameter is not supported by this implementation.
        public static let unsupported = Code("unsupported")
        /// The cryptographic operation failed.
        public static let crypto = Code("crypto")
        /// A text form of the code.
        public var description: String { raw }
    }

    /// What kind of failure this is.
    public let code: Code
    /// A readable cause, free of secrets.
    public let message: String
    /// The lower-level error, when this one wraps another.
    public let underlying: (any Error)?

    /// Creates an error.
    public init(code: Code, message: String, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying
    }

    /// `SigningError.code: message (caused by: …)`.
    public var description: String {
        var text = "SigningError.\(code): \(message)"
        if let underlying { text += " (caused by: \(String(describing: underlying)))" }
        return text
    }
}

extension SigningError {
    /// The request lacks something the signer needs.
    public static func invalidRequest(_ message: String) -> Self { Self(code: .invalidRequest, message: message) }
    /// The configuration is not usable.
    public static func invalidConfiguration(_ message: String) -> Self { Self(code: .invalidConfiguration, message: message) }
    /// Something asked for is not supported.
    public static func unsupported(_ message: String) -> Self { Self(code: .unsupported, message: message) }
}
