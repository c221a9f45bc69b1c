// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
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
        let civil = HTTPDate.civilFromDays(Int(dayNumber))
        let (year, month, day) = (Int64(civil.0), Int64(civil.1), Int64(civil.2))
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
}
