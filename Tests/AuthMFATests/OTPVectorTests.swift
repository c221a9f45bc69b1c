// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing
@testable import AuthMFA

@Suite struct OTPVectorTests {
    let vectors: OTPVectors

    init() throws {
        vectors = try OTPVectors.load()
    }

    @Test func vectorFileHasEveryPublishedCase() {
        #expect(vectors.hotpCodes.count == 10)
        #expect(vectors.totpRows.count == 6)
        #expect(vectors.totpSeeds["SHA512"]?.count == 64)
        #expect(vectors.totpSeeds["SHA256"]?.count == 32)
    }

    @Test func hotpRFC4226Counters0Through9() throws {
        let hotp = try HOTP(secret: OTPSecret(bytes: vectors.hotpSecret), algorithm: .sha1, digits: 6)
        for (counter, expected) in vectors.hotpCodes.enumerated() {
            #expect(hotp.code(counter: UInt64(counter)) == expected, "counter \(counter)")
            #expect(try hotp.verify(expected, counter: UInt64(counter)) == UInt64(counter))
        }
    }

    /// A look-ahead beyond ``MFAError/maximumHOTPLookAhead`` is refused: before, `UInt64.max`
    /// set the check counting through 2^64 counters (it never returned), and any code matched
    /// one of them.
    @Test func anHOTPLookAheadOutOfRangeIsATypedError() throws {
        let hotp = try HOTP(secret: OTPSecret(bytes: vectors.hotpSecret))
        #expect(try hotp.verify(vectors.hotpCodes[5], counter: 0, lookAhead: MFAError.maximumHOTPLookAhead) == 5)
        for lookAhead in [MFAError.maximumHOTPLookAhead + 1, UInt64.max] {
            let error = #expect(throws: MFAError.self) { try hotp.verify(vectors.hotpCodes[5], counter: 0, lookAhead: lookAhead) }
            #expect(error?.code == .invalidPolicy)
            #expect(error?.message.contains("\(lookAhead)") == true)
        }
    }

    @Test func hotpLookAheadReturnsMatchedCounter() throws {
        let hotp = try HOTP(secret: OTPSecret(bytes: vectors.hotpSecret))
        #expect(try hotp.verify(vectors.hotpCodes[7], counter: 5, lookAhead: 3) == 7)
        #expect(try hotp.verify(vectors.hotpCodes[9], counter: 5, lookAhead: 3) == nil)
        #expect(try hotp.verify(vectors.hotpCodes[4], counter: 5, lookAhead: 3) == nil)
    }

    @Test(arguments: OTPAlgorithm.allCases)
    func totpRFC6238Table(algorithm: OTPAlgorithm) throws {
        let seed = try #require(vectors.totpSeeds[algorithm.uriName])
        let totp = try TOTP(secret: OTPSecret(bytes: seed), algorithm: algorithm, digits: 8, period: 30, t0: 0)
        for row in vectors.totpRows {
            let expected = try #require(row.codes[algorithm.uriName])
            let date = Date(timeIntervalSince1970: TimeInterval(row.time))
            #expect(try totp.code(at: date) == expected, "time \(row.time)")
            #expect(try totp.verify(expected, at: date, window: 0) == UInt64(row.time / 30))
        }
    }

    @Test func base32OfTheSHA1Seed() throws {
        let seed = try #require(vectors.totpSeeds["SHA1"])
        #expect(Base32.encode(seed) == vectors.sha1SeedBase32)
        #expect(try OTPSecret(bytes: seed).base32EncodedString() == vectors.sha1SeedBase32)
        #expect(try Base32.decode(vectors.sha1SeedBase32) == seed)
    }

    @Test func codesAreZeroPadded() throws {
        // 07081804 at 1111111109 s (SHA-1) starts with a zero.
        let seed = try #require(vectors.totpSeeds["SHA1"])
        let totp = try TOTP(secret: OTPSecret(bytes: seed), digits: 8)
        for row in vectors.totpRows {
            let code = try totp.code(at: Date(timeIntervalSince1970: TimeInterval(row.time)))
            #expect(code.count == 8)
        }
        let sixDigit = try TOTP(secret: OTPSecret(bytes: seed), digits: 6)
        let code = try sixDigit.code(at: Date(timeIntervalSince1970: 1_111_111_109))
        #expect(code == String(try #require(vectors.totpRows.first { $0.time == 1_111_111_109 }?.codes["SHA1"]).suffix(6)))
    }

    @Test(arguments: [0, 5, 9, -1, 10])
    func digitsOutside6To8AreRejected(digits: Int) throws {
        let secret = try OTPSecret(bytes: vectors.hotpSecret)
        #expect(throws: MFAError.self) { try TOTP(secret: secret, digits: digits) }
        do {
            _ = try HOTP(secret: secret, digits: digits)
            Issue.record("digits \(digits) accepted")
        } catch {
            #expect(error.code == .invalidDigits)
        }
    }

    @Test func sevenDigitsIsTheLowDigitsOfTheEightDigitCode() throws {
        let seed = try #require(vectors.totpSeeds["SHA256"])
        let seven = try TOTP(secret: OTPSecret(bytes: seed), algorithm: .sha256, digits: 7)
        for row in vectors.totpRows {
            let eight = try #require(row.codes["SHA256"])
            #expect(try seven.code(at: Date(timeIntervalSince1970: TimeInterval(row.time))) == String(eight.suffix(7)))
        }
    }
}
