/// Why a public suffix list could not be loaded or compiled.
///
/// ``PublicSuffixList/init(text:includingPrivateDomains:)`` and its siblings throw it. When the
/// list shipped with AuthCookie cannot be loaded, ``PublicSuffixList/builtIn`` does not throw:
/// it fails closed and keeps the error in ``PublicSuffixList/unavailableReason``.
public struct PublicSuffixListError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let raw: String
        private init(_ raw: String) { self.raw = raw }
        /// The list is not in AuthCookie's resource bundle: the package was built or installed
        /// without `Resources/public_suffix_list.dat`.
        public static let resourceMissing = Code("resourceMissing")
        /// The file could not be read; ``PublicSuffixListError/underlying`` says why.
        public static let unreadable = Code("unreadable")
        /// The text is not a public suffix list: not UTF-8, or without the sections it must have.
        public static let malformed = Code("malformed")
        /// A line is not a rule this implementation accepts: an empty label, a `*` other than
        /// a whole leftmost label, an exception rule with a wildcard or a single label.
        public static let invalidRule = Code("invalidRule")
        /// A text form of the code.
        public var description: String { raw }
    }

    /// What kind of failure this is.
    public let code: Code
    /// A readable cause: what failed and what to do.
    public let message: String
    /// The 1-based line of the list that is at fault, when there is one.
    public let line: Int?
    /// The lower failure (a file-system error), when there is one.
    public let underlying: (any Error)?

    /// Creates an error.
    public init(code: Code, message: String, line: Int? = nil, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.line = line
        self.underlying = underlying
    }

    /// `PublicSuffixListError.code: message`, with the line and the underlying error.
    public var description: String {
        var text = "PublicSuffixListError.\(code): \(message)"
        if let line { text += " (line \(line))" }
        if let underlying { text += " (\(underlying))" }
        return text
    }
}
