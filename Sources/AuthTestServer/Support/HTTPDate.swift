// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Foundation

/// Formats and parses HTTP-dates (RFC 9110 §5.6.7 IMF-fixdate), e.g. `Sun, 06 Nov 1994 08:49:37 GMT`.
public enum HTTPDate {
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    private static var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "GMT") ?? calendar.timeZone
        return calendar
    }

    /// The IMF-fixdate text for `date`, truncated to whole seconds.
    /// - Parameter date: The instant to format.
    public static func format(_ date: Date) -> String {
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: date)
        let weekday = weekdays[((parts.weekday ?? 1) - 1 + 7) % 7]
        let month = months[((parts.month ?? 1) - 1 + 12) % 12]
        func two(_ value: Int?) -> String {
            let value = value ?? 0
            return value < 10 ? "0\(value)" : "\(value)"
        }
        let year = String(parts.year ?? 1970)
        return "\(weekday), \(two(parts.day)) \(month) \(year) \(two(parts.hour)):\(two(parts.minute)):\(two(parts.second)) GMT"
    }

    /// Parses an IMF-fixdate; returns `nil` for any other text.
    /// - Parameter text: A header value such as `Sun, 06 Nov 1994 08:49:37 GMT`.
    public static func parse(_ text: String) -> Date? {
        let fields = text.split(separator: " ")
        guard fields.count == 6, fields[5] == "GMT", fields[0].hasSuffix(",") else { return nil }
        guard let day = Int(fields[1]), let year = Int(fields[3]),
              let monthIndex = months.firstIndex(of: String(fields[2]))
        else { return nil }
        let time = fields[4].split(separator: ":").compactMap { Int($0) }
        guard time.count == 3 else { return nil }
        var parts = DateComponents()
        parts.year = year
        parts.month = monthIndex + 1
        parts.day = day
        parts.hour = time[0]
        parts.minute = time[1]
        parts.second = time[2]
        return calendar.date(from: parts)
    }
}
