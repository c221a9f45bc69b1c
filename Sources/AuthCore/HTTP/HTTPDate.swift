public import Foundation

/// Parses HTTP dates (RFC 9110 §5.6.7): IMF-fixdate, the obsolete RFC 850 form and asctime.
///
/// A hand-written parser rather than a `DateFormatter`: it runs on every response that carries
/// a `Date` header, it is locale-free, and it never allocates a formatter.
public enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// The date, or nil when the text is not an HTTP date.
    public static func parse(_ text: String) -> Date? {
        var day: Int?, month: Int?, year: Int?, time: (Int, Int, Int)?
        for token in text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "-" }) {
            if token.contains(":") {
                let parts = token.split(separator: ":").compactMap { Int($0) }
                guard parts.count == 3 else { return nil }
                time = (parts[0], parts[1], parts[2])
            } else if let number = Int(token) {
                if token.count <= 2, day == nil { day = number } else { year = token.count == 2 ? (number < 70 ? 2000 + number : 1900 + number) : number }
            } else if let index = months.firstIndex(of: token.prefix(3).lowercased()), token.count == 3 {
                month = index + 1
            }
        }
        guard let day, let month, let year, let (h, m, s) = time,
              (1...31).contains(day), (0...23).contains(h), (0...59).contains(m), (0...60).contains(s) else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + h * 3600 + m * 60 + s))
    }

    /// Formats a date as an IMF-fixdate, such as `Sun, 06 Nov 1994 08:49:37 GMT`.
    public static func format(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let rest = seconds - days * 86_400
        let (y, mo, d) = civilFromDays(days)
        let weekday = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"][((days % 7) + 7) % 7]
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let month = months[mo - 1].capitalized
        return "\(weekday), \(two(d)) \(month) \(y) \(two(rest / 3600)):\(two(rest % 3600 / 60)):\(two(rest % 60)) GMT"
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civilFromDays(_ days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp + (mp < 10 ? 3 : -9)
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
}
