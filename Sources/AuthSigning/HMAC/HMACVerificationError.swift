/// Why ``HMACRequestVerifier`` refused a request.
///
/// Compare codes: `error.code == .replayedNonce`. The ``message`` names the field or check that
/// failed; it never contains a key, a signature or a nonce value.
public struct HMACVerificationError: Error, Sendable, CustomStringConvertible {
    /// What kind of verification failure this is.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let raw: String
        private init(_ raw: String) { self.raw = raw }
        /// A required field (timestamp, nonce, key id or signature) is absent or empty.
        public static let missingHeader = Code("missingHeader")
        /// The timestamp field is not a whole number of seconds.
        public static let badTimestamp = Code("badTimestamp")
        /// The timestamp is further from the verifier's clock than the tolerance allows.
        public static let expired = Code("expired")
        /// The nonce was already seen for this key (or is too old to be checked).
        public static let replayedNonce = Code("replayedNonce")
        /// No key is known for the key id.
        public static let unknownKey = Code("unknownKey")
        /// The signature is malformed or does not match.
        public static let badSignature = Code("badSignature")
        /// The body digest field does not match the body received.
        public static let bodyDigestMismatch = Code("bodyDigestMismatch")
        /// A text form of the code.
        public var description: String { raw }
    }

    /// What kind of failure this is.
    public let code: Code
    /// A readable cause, free of secrets.
    public let message: String

    /// Creates an error.
    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    /// `HMACVerificationError.code: message`.
    public var description: String { "HMACVerificationError.\(code): \(message)" }
}
