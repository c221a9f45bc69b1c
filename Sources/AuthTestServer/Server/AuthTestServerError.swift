/// A failure to start or use the server.
public struct AuthTestServerError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }
        /// ``AuthTestServer/start()`` was called on a server that is starting or running.
        public static let alreadyRunning = Code("alreadyRunning")
        /// The server could not bind or stopped before listening.
        public static let startFailed = Code("startFailed")
        /// The code's name.
        public var description: String { name }
    }

    /// The kind of failure.
    public let code: Code
    /// What went wrong and what to do.
    public let message: String
    /// The lower failure, if any.
    public let underlying: (any Error)?

    /// Creates an error.
    /// - Parameters:
    ///   - code: The kind of failure.
    ///   - message: What went wrong.
    ///   - underlying: The lower failure.
    public init(_ code: Code, _ message: String, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying
    }

    /// `AuthTestServerError(code): message (cause: …)`.
    public var description: String {
        var text = "AuthTestServerError(\(code)): \(message)"
        if let underlying { text += " (cause: \(underlying))" }
        return text
    }
}
