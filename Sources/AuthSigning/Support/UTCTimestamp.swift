import Foundation

/// A date's UTC calendar fields in the `yyyyMMdd'T'HHmmss'Z'` form SigV4 uses, computed with
/// integer arithmetic (days from the civil calendar, proleptic Gregorian), without a `Calendar`.
struct UTCTimestamp: Sendable {
    /// `20150830T123600Z`, 16 ASCII bytes for years 0 to 9999.
    let basicBytes: [UInt8]

    /// `20150830T123600Z`.
    var basic: String { String(decoding: basicBytes, as: UTF8.self) }
    /// `20150830`.
    var day: String { String(decoding: basicBytes[..<8], as: UTF8.self) }
    /// The bytes of ``day``.
    var dayBytes: ArraySlice<UInt8> { basicBytes[..<8] }

    /// The timestamp of `date`, rounded down to the second; dates outside years 0 to 9999 (and
    /// non-finite ones) are clamped into that range.
    init(_ date: Date) {
        let interval = date.timeIntervalSince1970
        let lowest: Double = -62_167_219_200, highest: Double = 253_402_300_799   // 0000-01-01, 9999-12-31T23:59:59
        let seconds = Int64(interval.isNaN ? 0 : min(max(interval, lowest), highest).rounded(.down))
        let (days, secondOfDay) = seconds.quotientAndRemainder(dividingBy: 86_400)
        let (dayNumber, second) = secondOfDay < 0 ? (days - 1, secondOfDay + 86_400) : (days, secondOfDay)
        let (year, month, day) = Self.civil(fromDays: dayNumber)
        var bytes = [UInt8]()
        bytes.reserveCapacity(16)
        func put(_ value: Int64, digits: Int) {
            var divisor: Int64 = 1
            for _ in 1..<digits { divisor *= 10 }
            var rest = value
            while divisor > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8(rest / divisor))
                rest %= divisor
                divisor /= 10
            }
        }
        put(year, digits: 4)
        put(month, digits: 2)
        put(day, digits: 2)
        bytes.append(UInt8(ascii: "T"))
        put(second / 3600, digits: 2)
        put(second % 3600 / 60, digits: 2)
        put(second % 60, digits: 2)
        bytes.append(UInt8(ascii: "Z"))
        basicBytes = bytes
    }

    /// Year, month and day of the day `days` after 1970-01-01 (H. Hinnant's `civil_from_days`).
    static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
