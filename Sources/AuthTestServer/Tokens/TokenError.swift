/// Why the server refused a token. Never contains the token itself.
public struct TokenError: Error, Sendable, CustomStringConvertible, Equatable {
    /// The kind of failure.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// The token is not three base64url segments of JSON.
        public static let malformed = Code("malformed")
        /// The header names an algorithm other than HS256.
        public static let unsupportedAlgorithm = Code("unsupportedAlgorithm")
        /// The signature does not match the server key.
        public static let badSignature = Code("badSignature")
        /// The `exp` claim is at or before the server clock's now.
        public static let expired = Code("expired")
        /// The token's family was revoked (logout, refresh-token reuse).
        public static let revoked = Code("revoked")

        /// The code's name.
        public var description: String { name }
    }

    /// The kind of failure.
    public let code: Code
    /// What was wrong, without any secret.
    public let message: String

    /// Creates an error.
    /// - Parameters:
    ///   - code: The kind of failure.
    ///   - message: What was wrong; must not contain the token.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `TokenError(code): message`.
    public var description: String { "TokenError(\(code)): \(message)" }
}
