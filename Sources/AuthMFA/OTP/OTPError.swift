/// The errors OTP generation and configuration throw.
///
/// A struct with an extensible ``Code``; compare codes: `error.code == .invalidDigits`.
/// The message says what was wrong; it never contains a secret or a code.
public struct OTPError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let raw: String
        private init(_ raw: String) { self.raw = raw }
        /// The number of digits is not 6, 7 or 8.
        public static let invalidDigits = Code("invalidDigits")
        /// The TOTP period is not a positive number of seconds.
        public static let invalidPeriod = Code("invalidPeriod")
        /// The secret is empty or shorter than required.
        public static let invalidSecret = Code("invalidSecret")
        /// The time lies before the TOTP start time T0.
        public static let timeBeforeStart = Code("timeBeforeStart")
        /// The random number generator failed.
        public static let randomness = Code("randomness")
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

    /// `OTPError.code: message`.
    public var description: String { "OTPError.\(code): \(message)" }
}

extension OTPError {
    /// The allowed numbers of digits.
    public static let allowedDigits: ClosedRange<Int> = 6...8

    /// Checks a number of digits.
    static func validate(digits: Int) throws(OTPError) {
        guard allowedDigits.contains(digits) else {
            throw OTPError(code: .invalidDigits, message: "an OTP has 6, 7 or 8 digits, not \(digits)")
        }
    }

    /// Checks a TOTP period.
    static func validate(period: Int) throws(OTPError) {
        guard period > 0 else {
            throw OTPError(code: .invalidPeriod, message: "the TOTP period must be a positive number of seconds, not \(period)")
        }
    }
}
