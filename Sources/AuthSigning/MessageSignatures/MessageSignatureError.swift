/// Why an RFC 9421 signature could not be made or was refused, or a Content-Digest check failed.
///
/// Compare codes: `error.code == .expired`. The ``message`` names the label, component or
/// parameter concerned; it never contains a key, a signature or a digest value.
public struct MessageSignatureError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let raw: String
        private init(_ raw: String) { self.raw = raw }
        /// There is no `Signature-Input` field.
        public static let missingSignatureInput = Code("missingSignatureInput")
        /// `Signature-Input` is not a valid structured dictionary of inner lists of strings.
        public static let malformedSignatureInput = Code("malformedSignatureInput")
        /// There is no `Signature` field, or it has no member for the label.
        public static let missingSignature = Code("missingSignature")
        /// `Signature` is not a valid structured dictionary of byte sequences.
        public static let malformedSignature = Code("malformedSignature")
        /// The label asked for is not in `Signature-Input`.
        public static let labelNotFound = Code("labelNotFound")
        /// A signature parameter has the wrong type or a missing required value.
        public static let invalidParameter = Code("invalidParameter")
        /// No key is known for the `keyid`.
        public static let unknownKey = Code("unknownKey")
        /// The `alg` parameter does not match the key's algorithm.
        public static let algorithmMismatch = Code("algorithmMismatch")
        /// A component identifier or parameter is not supported (`;sf`, `;key`, `;tr`, unknown `@` names).
        public static let unsupportedComponent = Code("unsupportedComponent")
        /// A component identifier is malformed or listed twice.
        public static let invalidComponent = Code("invalidComponent")
        /// A covered component is not present in the message.
        public static let componentNotFound = Code("componentNotFound")
        /// The policy requires a component the signature does not cover.
        public static let requiredComponentNotCovered = Code("requiredComponentNotCovered")
        /// `created` is required but absent.
        public static let missingCreated = Code("missingCreated")
        /// `created` is later than the verifier's clock allows.
        public static let createdInFuture = Code("createdInFuture")
        /// `expires` has passed, or `created` is older than the maximum age.
        public static let expired = Code("expired")
        /// The `tag` is not the one the policy requires.
        public static let tagMismatch = Code("tagMismatch")
        /// The nonce was already used with this key.
        public static let replayedNonce = Code("replayedNonce")
        /// The signature does not verify.
        public static let badSignature = Code("badSignature")
        /// `content-digest` is covered but the field is missing.
        public static let missingContentDigest = Code("missingContentDigest")
        /// The Content-Digest field is malformed or names no supported algorithm.
        public static let malformedContentDigest = Code("malformedContentDigest")
        /// The body does not match the Content-Digest field.
        public static let contentDigestMismatch = Code("contentDigestMismatch")
        /// A key could not be used (wrong size, wrong kind).
        public static let invalidKey = Code("invalidKey")
        /// A text form of the code.
        public var description: String { raw }
    }

    /// What kind of failure this is.
    public let code: Code
    /// A readable cause, free of secrets.
    public let message: String
    /// The lower-level error (such as a ``StructuredFieldError``).
    public let underlying: (any Error)?

    /// Creates an error.
    public init(code: Code, message: String, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying
    }

    /// `MessageSignatureError.code: message (caused by: …)`.
    public var description: String {
        var text = "MessageSignatureError.\(code): \(message)"
        if let underlying { text += " (caused by: \(String(describing: underlying)))" }
        return text
    }
}
