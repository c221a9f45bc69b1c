// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Foundation

/// Parses and formats HTTP dates (RFC 9110 §5.6.7): IMF-fixdate, the obsolete RFC 850 form and
/// asctime.
///
/// A byte-level parser rather than a `DateFormatter`: it runs on every response that carries a
/// `Date` header and on server input of every kind (`Retry-After`, `Expires`, token endpoints),
/// so it is locale-free, allocates nothing and reads each field with a fixed number of digits.
/// No input can make its arithmetic overflow: a year has at most four digits.
public enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// The date, or nil when the text is not an HTTP date in one of the three forms.
    ///
    /// Names of days and months are matched without regard to case, the day of the week is not
    /// checked against the date, and surrounding spaces are ignored. A two-digit RFC 850 year
    /// below 70 is taken as 20xx.
    public static func parse(_ text: String) -> Date? {
        read(text)
    }

    private static func read(_ text: String) -> Date? {
        var text = text
        let seconds = text.withUTF8 { bytes -> Int? in
            var cursor = Cursor(bytes: bytes)
            return cursor.httpDate()
        }
        return seconds.map { Date(timeIntervalSince1970: TimeInterval($0)) }
    }

    /// Whether `byte` is an ASCII letter.
    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) &- UInt8(ascii: "a") < 26
    }

    /// The month, 1...12, that three letters name in any case; nil when they name none.
    private static func month(_ first: UInt8, _ second: UInt8, _ third: UInt8) -> Int? {
        // The three letters, lower-cased, as one number: no allocation, no string compare.
        switch UInt32(first | 0x20) << 16 | UInt32(second | 0x20) << 8 | UInt32(third | 0x20) {
        case 0x6A_61_6E: 1 // jan
        case 0x66_65_62: 2 // feb
        case 0x6D_61_72: 3 // mar
        case 0x61_70_72: 4 // apr
        case 0x6D_61_79: 5 // may
        case 0x6A_75_6E: 6 // jun
        case 0x6A_75_6C: 7 // jul
        case 0x61_75_67: 8 // aug
        case 0x73_65_70: 9 // sep
        case 0x6F_63_74: 10 // oct
        case 0x6E_6F_76: 11 // nov
        case 0x64_65_63: 12 // dec
        default: nil
        }
    }

    /// Formats a date as an IMF-fixdate, such as `Sun, 06 Nov 1994 08:49:37 GMT`; the year always
    /// has at least four digits, so every date ``parse(_:)`` returns formats to text that parses
    /// back to it.
    public static func format(_ date: Date) -> String {
        // Clamped to years 0...9999 (what an HTTP date can say), so no date can trap here.
        let raw = date.timeIntervalSince1970
        let seconds = raw.isFinite ? Int(min(max(raw, -62_167_219_200), 253_402_300_799).rounded(.down)) : 0
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let rest = seconds - days * 86_400
        let (y, mo, d) = civilFromDays(days)
        let weekday = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"][((days % 7) + 7) % 7]
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let month = months[mo - 1].capitalized
        // IMF-fixdate's year has four digits: year 42 is `0042`, or it would read back as 2042.
        let year = y >= 0 && y < 1000 ? String(String(y + 10_000).dropFirst()) : "\(y)"
        return "\(weekday), \(two(d)) \(month) \(year) \(two(rest / 3600)):\(two(rest % 3600 / 60)):\(two(rest % 60)) GMT"
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

    /// Year, month and day of the day `days` after 1970-01-01 (H. Hinnant's `civil_from_days`).
    package static func civilFromDays(_ days: Int) -> (Int, Int, Int) {
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

    /// The number of days in `month` of `year`.
    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Reads the three forms from bytes.
    private struct Cursor {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        /// Seconds since 1970 of the whole input, or nil.
        mutating func httpDate() -> Int? {
            skipSpaces()
            guard letters(min: 3, max: 9) != nil else { return nil }
            let day: Int, month: Int, year: Int, time: Int
            if take(UInt8(ascii: ",")) {
                // IMF-fixdate `Sun, 06 Nov 1994 08:49:37 GMT` or RFC 850 `Sunday, 06-Nov-94 08:49:37 GMT`.
                guard skipSpaces() > 0, let d = digits(min: 1, max: 2) else { return nil }
                let separator: UInt8 = take(UInt8(ascii: "-")) ? UInt8(ascii: "-") : UInt8(ascii: " ")
                if separator == UInt8(ascii: " ") { guard skipSpaces() > 0 else { return nil } }
                guard let m = month_() else { return nil }
                if separator == UInt8(ascii: "-") { guard take(separator) else { return nil } } else { guard skipSpaces() > 0 else { return nil } }
                guard let y = year_(), skipSpaces() > 0, let t = timeOfDay(), skipSpaces() > 0,
                      takeCaseInsensitive("gmt") else { return nil }
                (day, month, year, time) = (d, m, y, t)
            } else {
                // asctime `Sun Nov  6 08:49:37 1994`.
                guard skipSpaces() > 0, let m = month_(), skipSpaces() > 0, let d = digits(min: 1, max: 2),
                      skipSpaces() > 0, let t = timeOfDay(), skipSpaces() > 0, let y = digits(min: 4, max: 4) else { return nil }
                (day, month, year, time) = (d, m, y, t)
            }
            skipSpaces()
            guard index == bytes.count, (1...HTTPDate.daysIn(month: month, year: year)).contains(day) else { return nil }
            return HTTPDate.daysFromCivil(year: year, month: month, day: day) * 86_400 + time
        }

        /// A four-digit year, or a two-digit one of the RFC 850 form.
        mutating func year_() -> Int? {
            let start = index
            guard let value = digits(min: 2, max: 4), index - start != 3 else { return nil }
            guard index - start == 2 else { return value }
            return value < 70 ? 2000 + value : 1900 + value
        }

        /// `hh:mm:ss` as seconds into the day.
        mutating func timeOfDay() -> Int? {
            guard let h = digits(min: 2, max: 2), h < 24, take(UInt8(ascii: ":")),
                  let m = digits(min: 2, max: 2), m < 60, take(UInt8(ascii: ":")),
                  let s = digits(min: 2, max: 2), s <= 60 else { return nil }
            return h * 3600 + m * 60 + s
        }

        /// A three-letter month name, 1...12.
        mutating func month_() -> Int? {
            guard let range = letters(min: 3, max: 3) else { return nil }
            return HTTPDate.month(bytes[range.lowerBound], bytes[range.lowerBound + 1], bytes[range.lowerBound + 2])
        }

        /// A run of `min...max` ASCII letters (stops at `max`); its range.
        mutating func letters(min: Int, max: Int) -> Range<Int>? {
            let start = index
            while index < bytes.count, index - start < max, HTTPDate.isLetter(bytes[index]) {
                index += 1
            }
            return index - start >= min ? start..<index : nil
        }

        /// A run of `min...max` decimal digits followed by a non-digit; its value.
        mutating func digits(min: Int, max: Int) -> Int? {
            let start = index
            var value = 0
            while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 {
                guard index - start < max else { return nil }
                value = value * 10 + Int(bytes[index] &- UInt8(ascii: "0"))
                index += 1
            }
            return index - start >= min ? value : nil
        }
        mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }
        mutating func takeCaseInsensitive(_ word: StaticString) -> Bool {
            let count = word.utf8CodeUnitCount
            guard bytes.count - index >= count else { return false }
            for offset in 0..<count where bytes[index + offset] | 0x20 != word.utf8Start[offset] { return false }
            index += count
            return true
        }

        @discardableResult
        mutating func skipSpaces() -> Int {
            let start = index
            while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") { index += 1 }
            return index - start
        }
    }
}
