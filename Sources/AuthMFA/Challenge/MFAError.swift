/// The errors of the MFA flow: answering a challenge, or a missing enrolment.
///
/// A struct with an extensible ``Code``; compare codes: `error.code == .expiredChallenge`.
public struct MFAError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let raw: String
        private init(_ raw: String) { self.raw = raw }
        /// The challenge expired before it was answered; sign in again.
        public static let expiredChallenge = Code("expiredChallenge")
        /// Every allowed attempt at the challenge failed; sign in again.
        public static let attemptsExhausted = Code("attemptsExhausted")
        /// None of the challenge's methods can be answered here.
        public static let noMethodAvailable = Code("noMethodAvailable")
        /// The account has no secret for the method (not enrolled).
        public static let notEnrolled = Code("notEnrolled")
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

    /// `MFAError.code: message`.
    public var description: String { "MFAError.\(code): \(message)" }
}

extension MFAError {
    /// The challenge expired.
    public static func expiredChallenge() -> MFAError {
        MFAError(code: .expiredChallenge, message: "the MFA challenge has expired; sign in again")
    }
    /// All attempts failed.
    public static func attemptsExhausted(attempts: Int) -> MFAError {
        MFAError(code: .attemptsExhausted, message: "all \(attempts) attempts at the MFA challenge failed; sign in again")
    }
    /// No usable method.
    public static func noMethodAvailable(offered: [MFAMethod]) -> MFAError {
        MFAError(code: .noMethodAvailable, message: "none of the offered MFA methods (\(offered.map(\.rawValue).joined(separator: ", "))) can be answered here")
    }
    /// No secret for the method.
    public static func notEnrolled(method: MFAMethod) -> MFAError {
        MFAError(code: .notEnrolled, message: "the account is not enrolled for \(method.rawValue); enrol it first")
    }
}
