// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Foundation

/// The cookie-date parser of RFC 6265 §5.1.1, used for the `Expires` attribute.
///
/// It follows the algorithm literally: the string is split into tokens at the delimiter octets,
/// the first token that matches each of the `time`, `day-of-month`, `month` and `year`
/// productions (tried in that order) supplies that part, two-digit years are mapped (70–99 →
/// 19xx, 00–69 → 20xx) and the result is validated. Anything else, such as a time zone name, is
/// ignored: every cookie date is UTC.
///
/// ```swift
/// let date = CookieDate.parse("Wed, 09 Dec 2009 16:27:23 GMT")         // 2009-12-09T16:27:23Z
/// let twoDigitYear = CookieDate.parse("Mon, 10-Dec-07 20:35:03 GMT")   // 2007-12-10T20:35:03Z
/// let notADate = CookieDate.parse("yesterday")                         // nil
/// ```
public enum CookieDate {
    /// Parses a cookie-date.
    /// - Parameter string: The attribute value, such as `Wed, 09 Dec 2009 16:27:23 GMT`.
    /// - Returns: The date, or nil when the algorithm fails (a part is missing or out of range,
    ///   or the day does not exist in that month).
    public static func parse(_ string: String) -> Date? {
        string.utf8.withContiguousStorageIfAvailable { parse(bytes: $0) }
            ?? parse(bytes: Array(string.utf8)[...])
    }

    /// Parses a cookie-date from its octets.
    static func parse<C: RandomAccessCollection<UInt8>>(bytes: C) -> Date? where C.Index == Int {
        var fields = Fields()
        var index = bytes.startIndex
        while index < bytes.endIndex {
            while index < bytes.endIndex, isDelimiter(bytes[index]) { index += 1 }
            let start = index
            while index < bytes.endIndex, !isDelimiter(bytes[index]) { index += 1 }
            if start < index { fields.consume(bytes[start..<index]) }
        }
        return fields.date()
    }

    /// `delimiter = %x09 / %x20-2F / %x3B-40 / %x5B-60 / %x7B-7E`.
    static func isDelimiter(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x09, 0x20...0x2F, 0x3B...0x40, 0x5B...0x60, 0x7B...0x7E: true
        default: false
        }
    }

    /// The parts found so far, in the order the algorithm looks for them.
    private struct Fields {
        var time: (hour: Int, minute: Int, second: Int)?
        var dayOfMonth: Int?
        var month: Int?
        var year: Int?

        mutating func consume<C: RandomAccessCollection<UInt8>>(_ token: C) where C.Index == Int {
            if time == nil, let value = Self.time(token) {
                time = value
            } else if dayOfMonth == nil, let value = Self.digits(token, min: 1, max: 2) {
                dayOfMonth = value
            } else if month == nil, let value = Self.month(token) {
                month = value
            } else if year == nil, let value = Self.digits(token, min: 2, max: 4) {
                year = value
            }
        }

        /// Applies the two-digit year mapping and the validation steps.
        func date() -> Date? {
            guard let time, let dayOfMonth, let month, var year else { return nil }
            if (70...99).contains(year) { year += 1900 } else if (0...69).contains(year) { year += 2000 }
            guard (1...31).contains(dayOfMonth), year >= 1601,
                  time.hour <= 23, time.minute <= 59, time.second <= 59,
                  dayOfMonth <= Self.daysIn(month: month, year: year)
            else { return nil }
            let days = Self.daysFromCivil(year: year, month: month, day: dayOfMonth)
            let seconds = days * 86_400 + time.hour * 3_600 + time.minute * 60 + time.second
            return Date(timeIntervalSince1970: TimeInterval(seconds))
        }

        /// `N*MDIGIT ( non-digit *OCTET )`: the leading digits, when there are N to M of them.
        static func digits<C: RandomAccessCollection<UInt8>>(_ token: C, min: Int, max: Int) -> Int? where C.Index == Int {
            var value = 0, count = 0
            var index = token.startIndex
            while index < token.endIndex, isDigit(token[index]) {
                count += 1
                if count > max { return nil }
                value = value * 10 + Int(token[index] - 0x30)
                index += 1
            }
            return count >= min ? value : nil
        }

        /// `time = hms-time ( non-digit *OCTET )`, `hms-time = time-field ":" time-field ":" time-field`.
        static func time<C: RandomAccessCollection<UInt8>>(_ token: C) -> (hour: Int, minute: Int, second: Int)? where C.Index == Int {
            var parts: [Int] = []
            var index = token.startIndex
            for part in 0..<3 {
                var value = 0, count = 0
                while index < token.endIndex, isDigit(token[index]), count < 2 {
                    value = value * 10 + Int(token[index] - 0x30)
                    count += 1
                    index += 1
                }
                guard count > 0 else { return nil }
                parts.append(value)
                if part < 2 {
                    guard index < token.endIndex, token[index] == UInt8(ascii: ":") else { return nil }
                    index += 1
                } else if index < token.endIndex, isDigit(token[index]) {
                    return nil
                }
            }
            return (parts[0], parts[1], parts[2])
        }

        /// `month = ( "jan" / … / "dec" ) *OCTET`, case-insensitively; 1 for January.
        static func month<C: RandomAccessCollection<UInt8>>(_ token: C) -> Int? where C.Index == Int {
            guard token.count >= 3 else { return nil }
            let start = token.startIndex
            let key = (token[start] | 0x20, token[start + 1] | 0x20, token[start + 2] | 0x20)
            for (offset, name) in monthNames.enumerated() where name == key { return offset + 1 }
            return nil
        }

        static let monthNames: [(UInt8, UInt8, UInt8)] = ["jan", "feb", "mar", "apr", "may", "jun",
            "jul", "aug", "sep", "oct", "nov", "dec"].map { name in
                let bytes = Array(name.utf8)
                return (bytes[0], bytes[1], bytes[2])
            }

        static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

        static func daysIn(month: Int, year: Int) -> Int {
            switch month {
            case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
            case 4, 6, 9, 11: 30
            default: 31
            }
        }

        /// Days since 1970-01-01 in the proleptic Gregorian calendar (H. Hinnant's algorithm).
        static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
            let y = month <= 2 ? year - 1 : year
            let era = (y >= 0 ? y : y - 399) / 400
            let yearOfEra = y - era * 400
            let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
            let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
            return era * 146_097 + dayOfEra - 719_468
        }
    }
}
