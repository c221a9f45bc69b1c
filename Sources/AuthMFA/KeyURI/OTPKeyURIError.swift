/// The errors parsing or building an `otpauth://` key URI throws.
///
/// The ``code`` names the part that is wrong (scheme, type, label, secret, algorithm, digits,
/// period, counter, issuer, parameter). The message never quotes the secret nor any other
/// value taken from the URI.
public struct OTPKeyURIError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Which part of the URI is wrong.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let raw: String
        private init(_ raw: String) { self.raw = raw }
        /// The URI does not start with `otpauth://`.
        public static let scheme = Code("scheme")
        /// The type is not `totp` or `hotp`.
        public static let type = Code("type")
        /// The label is missing, empty, badly percent-encoded, or has a bad `issuer:` prefix.
        public static let label = Code("label")
        /// There is no `secret` parameter.
        public static let missingSecret = Code("missingSecret")
        /// The `secret` is not valid base32 or is empty.
        public static let invalidSecret = Code("invalidSecret")
        /// The `algorithm` is not SHA1, SHA256 or SHA512.
        public static let algorithm = Code("algorithm")
        /// The `digits` is not 6, 7 or 8.
        public static let digits = Code("digits")
        /// The `period` is not a positive whole number of seconds.
        public static let period = Code("period")
        /// The `counter` of an `hotp` URI is missing or not a whole number.
        public static let counter = Code("counter")
        /// The `issuer` parameter disagrees with the label's issuer prefix, or is invalid.
        public static let issuer = Code("issuer")
        /// A parameter is malformed (bad percent-encoding) or given twice.
        public static let parameter = Code("parameter")
        /// A text form of the code.
        public var description: String { raw }
    }

    /// Which part of the URI is wrong.
    public let code: Code
    /// A readable cause, free of secrets.
    public let message: String

    /// Creates an error.
    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    /// `OTPKeyURIError.code: message`.
    public var description: String { "OTPKeyURIError.\(code): \(message)" }
}
