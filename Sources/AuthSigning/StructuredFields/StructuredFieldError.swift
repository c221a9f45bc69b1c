/// A structured field value (RFC 8941) that could not be parsed or serialized.
///
/// The message names the position and what was expected; it never repeats the field's content.
public struct StructuredFieldError: Error, Sendable, CustomStringConvertible {
    /// The byte offset where parsing failed, when known.
    public let offset: Int?
    /// What was wrong.
    public let message: String

    /// Creates an error.
    public init(offset: Int? = nil, message: String) {
        self.offset = offset
        self.message = message
    }

    /// `StructuredFieldError: message at byte N`.
    public var description: String {
        "StructuredFieldError: \(message)" + (offset.map { " at byte \($0)" } ?? "")
    }
}
