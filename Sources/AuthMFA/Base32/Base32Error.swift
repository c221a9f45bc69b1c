/// The errors ``Base32/decode(_:)`` throws.
///
/// The message names the position of the problem, never the text itself (it may be a secret).
public struct Base32Error: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let raw: String
        private init(_ raw: String) { self.raw = raw }
        /// A character outside `A–Z`, `2–7` (any case), `=`, space and hyphen.
        public static let invalidCharacter = Code("invalidCharacter")
        /// The number of characters cannot come from encoding whole bytes.
        public static let invalidLength = Code("invalidLength")
        /// `=` padding in the middle, or the wrong amount of it.
        public static let invalidPadding = Code("invalidPadding")
        /// A text form of the code.
        public var description: String { raw }
    }

    /// What kind of failure this is.
    public let code: Code
    /// A readable cause, free of the input text.
    public let message: String
    /// The offset (in characters, after removing spaces and hyphens) where the problem is, when
    /// there is one.
    public let position: Int?

    /// Creates an error.
    public init(code: Code, message: String, position: Int? = nil) {
        self.code = code
        self.message = message
        self.position = position
    }

    /// `Base32Error.code: message`.
    public var description: String { "Base32Error.\(code): \(message)" }
}
