public import Foundation

/// Reads a `Retry-After` header value (RFC 9110 §10.2.3): delay seconds or an HTTP-date.
public enum RetryAfter {
    /// The delay in seconds from `now`, or nil when the value is neither form. Negative delays
    /// (a date in the past) become zero.
    public static func seconds(_ value: String, now: Date) -> Double? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if !trimmed.isEmpty, trimmed.allSatisfy(\.isASCII), trimmed.allSatisfy(\.isNumber) {
            return Double(trimmed)
        }
        guard let date = HTTPDate.parse(trimmed) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }
}
