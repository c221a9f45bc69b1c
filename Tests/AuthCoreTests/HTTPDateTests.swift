// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Foundation
import Testing

/// `HTTPDate.parse` reads the three forms of RFC 9110 §5.6.7 and gives back what `format` wrote.
@Suite struct HTTPDateTests {
    /// SplitMix64: the same texts on every run, so that a failure names one to try again.
    private struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test func everyFormattedDateReadsBack() {
        var generator = Generator(state: 23)
        // Any second of years 1 to 9999, and the edges of days, months and leap years.
        let edges: [Int64] = [-62_135_596_800, 253_402_300_799, 0, 951_782_400, 951_868_799, -2_203_977_600, 4_107_456_000, 1_767_225_599]
        let random = (0..<20_000).map { _ in Int64.random(in: -62_135_596_800...253_402_300_799, using: &generator) }
        for seconds in edges + random {
            let date = Date(timeIntervalSince1970: Double(seconds))
            let text = HTTPDate.format(date)
            #expect(HTTPDate.parse(text) == date, "\(text)")
        }
    }

    @Test(arguments: [
        ("sun, 06 nov 1994 08:49:37 gmt", 784_111_777.0 as Double?),
        ("SUN, 06 NOV 1994 08:49:37 GMT", 784_111_777),
        ("Xyz, 06 Nov 1994 08:49:37 GMT", 784_111_777),
        ("Sat, 29 Feb 2000 23:59:60 GMT", 951_868_800),
        ("Thu, 29 Feb 1900 00:00:00 GMT", nil),
        ("Sun, 31 Apr 1994 08:49:37 GMT", nil),
        ("Sun, 00 Nov 1994 08:49:37 GMT", nil),
        ("Sun, 06 Nov 1994 24:00:00 GMT", nil),
        ("Sun, 06 Nov 1994 08:60:00 GMT", nil),
        ("Sun, 06 Nov 1994 08:49:61 GMT", nil),
        ("Sun, 06 Xov 1994 08:49:37 GMT", nil),
        ("Sun, 06 Nov 1994 08:49:37 UTC", nil),
        ("Sun,\t06 Nov 1994 08:49:37 GMT", 784_111_777),
        ("Sun, 06 Nov 1994 08:49:37 GMT ", 784_111_777),
        ("Sun, 6 Nov 1994 08:49:37 GMT", 784_111_777),
    ])
    func fixdatesAtTheEdgesOfTheLayout(text: String, seconds: Double?) {
        #expect(HTTPDate.parse(text) == seconds.map(Date.init(timeIntervalSince1970:)))
    }
}
