/// Why a ``FileCredentialStore`` refused to open its directory.
///
/// Thrown only by ``FileCredentialStore/init(directory:options:)``; the operations of an open
/// store throw `CredentialStoreError`. Compare codes: `error.code == .insecurePermissions`.
/// A refusal by `StoreDirectoryPolicy` is carried as ``underlying``.
public struct FileStoreError: Error, Sendable, CustomStringConvertible {
    /// What kind of refusal this is.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let raw: String
        private init(_ raw: String) { self.raw = raw }
        /// The path exists but is not a directory.
        public static let notADirectory = Code("notADirectory")
        /// Users other than the owner (group or others) can write to the directory.
        public static let insecurePermissions = Code("insecurePermissions")
        /// The directory belongs to another user.
        public static let foreignOwner = Code("foreignOwner")
        /// The store directory is a symbolic link where none may be (links in the path the
        /// caller gave are followed; see `StoreDirectoryPolicy`).
        public static let symbolicLink = Code("symbolicLink")
        /// The URL is not a file URL.
        public static let invalidLocation = Code("invalidLocation")
        /// The directory or its lock file could not be created or inspected.
        public static let io = Code("io")
        /// A text form of the code.
        public var description: String { raw }
    }

    /// What kind of refusal this is.
    public let code: Code
    /// A readable cause that says what to do.
    public let message: String
    /// The directory concerned.
    public let path: String
    /// The lower-level error, when there is one.
    public let underlying: (any Error)?

    /// Creates an error.
    public init(code: Code, message: String, path: String, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.path = path
        self.underlying = underlying
    }

    /// `FileStoreError.code: message (path) (caused by: …)`.
    public var description: String {
        var text = "FileStoreError.\(code): \(message) (\(path))"
        if let underlying { text += " (caused by: \(String(describing: underlying)))" }
        return text
    }
}
