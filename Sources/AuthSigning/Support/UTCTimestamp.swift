import Foundation

/// UTC calendar fields of a date, for the `yyyyMMdd'T'HHmmss'Z'` form SigV4 uses.
struct UTCTimestamp: Sendable {
    /// `20150830T123600Z`.
    let basic: String
    /// `20150830`.
    let day: String

    init(_ date: Date) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func pad(_ value: Int?, _ width: Int) -> String {
            let text = String(value ?? 0)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        day = pad(parts.year, 4) + pad(parts.month, 2) + pad(parts.day, 2)
        basic = day + "T" + pad(parts.hour, 2) + pad(parts.minute, 2) + pad(parts.second, 2) + "Z"
    }
}
