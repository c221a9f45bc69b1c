// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing
@testable import AuthCookie

/// One case of `cookies/dates-examples.json`.
struct DateCase: Decodable, Sendable, CustomTestStringConvertible {
    var test: String
    var expected: String?
    var testDescription: String { test }
}

@Suite struct CookieDateTests {
    static let cases = loadVectors("cookies/dates-examples.json", as: [DateCase].self)

    static func rfc1123(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }

    @Test func vectorsAreLoaded() {
        #expect(!Self.cases.isEmpty, "Tests/Vectors/cookies/dates-examples.json was not found or did not decode")
    }

    @Test(arguments: cases)
    func publishedExample(_ example: DateCase) {
        let parsed = CookieDate.parse(example.test)
        #expect(parsed.map(Self.rfc1123) == example.expected)
    }

    @Test func twoDigitYearsMapAcrossTheCenturyBoundary() throws {
        let seventy = try #require(CookieDate.parse("01 Jan 70 00:00:00"))
        let sixtyNine = try #require(CookieDate.parse("01 Jan 69 00:00:00"))
        #expect(Self.rfc1123(seventy) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(Self.rfc1123(sixtyNine) == "Tue, 01 Jan 2069 00:00:00 GMT")
    }

    @Test(arguments: [
        "30 Feb 2020 10:00:00",      // no such day
        "29 Feb 2023 10:00:00",      // not a leap year
        "01 Jan 1600 10:00:00",      // before 1601
        "01 Jan 2020 24:00:00",      // hour out of range
        "01 Jan 2020 10:60:00",      // minute out of range
        "32 Jan 2020 10:00:00",      // day out of range
        "01 Jan 2020",               // no time
        "Jan 2020 10:00:00",         // no day of month
        "01 2020 10:00:00",          // no month
        "01 Jan 10:00:00",           // no year
        "01 Jan 20201 10:00:00",     // five-digit year
        "",
    ])
    func invalidDatesAreRejected(_ input: String) {
        #expect(CookieDate.parse(input) == nil)
    }

    @Test func leapDayAndTimeZoneNamesAreHandled() throws {
        let leap = try #require(CookieDate.parse("Sat, 29-Feb-2020 12:34:56 PST"))
        #expect(Self.rfc1123(leap) == "Sat, 29 Feb 2020 12:34:56 GMT")
    }
}
