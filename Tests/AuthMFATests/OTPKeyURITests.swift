// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing
@testable import AuthMFA

@Suite struct OTPKeyURITests {
    /// RFC 4226's secret, base32: GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ.
    static let secret: OTPSecret = {
        do { return try OTPSecret(bytes: Array("12345678901234567890".utf8)) } catch { preconditionFailure("\(error)") }
    }()
    static let secretBase32 = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"

    struct BuildCase: Sendable, CustomTestStringConvertible {
        let kind: OTPKeyURI.Kind
        let account: String
        let issuer: String?
        let algorithm: OTPAlgorithm
        let digits: Int
        var testDescription: String { "\(kind.name) \(issuer ?? "-") / \(account)" }
    }

    static let buildCases: [BuildCase] = [
        BuildCase(kind: .totp(period: 30), account: "alice@example.com", issuer: "Example", algorithm: .sha1, digits: 6),
        BuildCase(kind: .totp(period: 60), account: "Ålice Smith", issuer: "Exämple Co", algorithm: .sha256, digits: 8),
        BuildCase(kind: .totp(period: 15), account: "bob+tag@example.com", issuer: nil, algorithm: .sha512, digits: 7),
        BuildCase(kind: .hotp(counter: 0), account: "carol", issuer: "ACME & Sons / R&D", algorithm: .sha1, digits: 6),
        BuildCase(kind: .hotp(counter: UInt64.max), account: "用户 ✓ 🙂", issuer: "サービス", algorithm: .sha256, digits: 8),
        BuildCase(kind: .totp(period: 30), account: "dave?x=1&y=%20", issuer: "a=b#c", algorithm: .sha1, digits: 6),
        // Found by the fuzz target's round trip: a reader drops spaces after `issuer:`.
        BuildCase(kind: .totp(period: 30), account: " bob", issuer: "X", algorithm: .sha1, digits: 6),
    ]

    @Test(arguments: buildCases)
    func buildThenParseRoundTrips(_ input: BuildCase) throws {
        let uri = try OTPKeyURI(kind: input.kind, secret: Self.secret, account: input.account, issuer: input.issuer, algorithm: input.algorithm, digits: input.digits)
        let text = uri.uriString
        #expect(text.hasPrefix("otpauth://\(input.kind.name)/"))
        #expect(!text.contains(" "))
        let isASCII = text.unicodeScalars.allSatisfy { $0.isASCII }
        #expect(isASCII)
        #expect(uri.url != nil)
        let parsed = try OTPKeyURI(parsing: text)
        #expect(parsed == uri)
        #expect(parsed.account == input.account)
        #expect(parsed.issuer == input.issuer)
        #expect(parsed.kind == input.kind)
        #expect(parsed.secret.bytes == Self.secret.bytes)
    }

    @Test func builtURIHasTheDocumentedShape() throws {
        let uri = try OTPKeyURI(kind: .totp(period: 30), secret: Self.secret, account: "alice smith", issuer: "Example Co")
        #expect(uri.uriString == "otpauth://totp/Example%20Co:alice%20smith?secret=\(Self.secretBase32)&issuer=Example%20Co&algorithm=SHA1&digits=6&period=30")
    }

    @Test func parsesGoogleStyleURIsWithDefaults() throws {
        let uri = try OTPKeyURI(parsing: "otpauth://totp/ACME%20Co:john.doe@email.com?secret=gezdgnbvgy3tqojqgezdgnbvgy3tqojq&issuer=ACME%20Co&image=x")
        #expect(uri.issuer == "ACME Co")
        #expect(uri.account == "john.doe@email.com")
        #expect(uri.algorithm == .sha1)
        #expect(uri.digits == 6)
        #expect(uri.kind == .totp(period: 30))
        #expect(uri.secret.bytes == Self.secret.bytes)

        let encodedColon = try OTPKeyURI(parsing: "OTPAUTH://TOTP/Example%3A%20alice?secret=\(Self.secretBase32)&algorithm=sha512&digits=8&period=60")
        #expect(encodedColon.issuer == "Example")
        #expect(encodedColon.account == "alice")
        #expect(encodedColon.algorithm == .sha512)
        #expect(try encodedColon.makeTOTP().period == 60)

        let labelOnly = try OTPKeyURI(parsing: "otpauth://hotp/bob?secret=\(Self.secretBase32)&counter=42&issuer=Corp")
        #expect(labelOnly.issuer == "Corp")
        #expect(labelOnly.kind == .hotp(counter: 42))
    }

    @Test func parsedURIGeneratesTheRFCCodes() throws {
        let uri = try OTPKeyURI(parsing: "otpauth://totp/x?secret=\(Self.secretBase32)&digits=8")
        #expect(try uri.makeTOTP().code(at: Date(timeIntervalSince1970: 59)) == "94287082")
    }

    static let malformed: [(String, MFAError.Code)] = {
        let s = secretBase32
        return [
            ("https://totp/alice?secret=\(s)", .keyURIScheme),
            ("otpauth:totp/alice?secret=\(s)", .keyURIScheme),
            ("otpauth://motp/alice?secret=\(s)", .keyURIType),
            ("otpauth://alice?secret=\(s)", .keyURIType),
            ("otpauth://totp?secret=\(s)", .keyURILabel),
            ("otpauth://totp/?secret=\(s)", .keyURILabel),
            ("otpauth://totp/Example:?secret=\(s)", .keyURILabel),
            ("otpauth://totp/:alice?secret=\(s)", .keyURILabel),
            ("otpauth://totp/al%ZZice?secret=\(s)", .keyURILabel),
            ("otpauth://totp/al%FFice?secret=\(s)", .keyURILabel),
            ("otpauth://totp/alice", .keyURIMissingSecret),
            ("otpauth://totp/alice?issuer=Example", .keyURIMissingSecret),
            ("otpauth://totp/alice?secret=\(s)1", .invalidSecret),
            ("otpauth://totp/alice?secret=", .invalidSecret),
            ("otpauth://totp/alice?secret=\(s)&algorithm=MD5", .keyURIAlgorithm),
            ("otpauth://totp/alice?secret=\(s)&digits=9", .keyURIDigits),
            ("otpauth://totp/alice?secret=\(s)&digits=six", .keyURIDigits),
            ("otpauth://totp/alice?secret=\(s)&digits=+6", .keyURIDigits),
            ("otpauth://totp/alice?secret=\(s)&period=0", .keyURIPeriod),
            ("otpauth://totp/alice?secret=\(s)&period=-30", .keyURIPeriod),
            ("otpauth://hotp/alice?secret=\(s)", .keyURICounter),
            ("otpauth://hotp/alice?secret=\(s)&counter=ten", .keyURICounter),
            ("otpauth://hotp/alice?secret=\(s)&counter=18446744073709551616", .keyURICounter),
            ("otpauth://totp/Example:alice?secret=\(s)&issuer=Other", .keyURIIssuer),
            ("otpauth://totp/alice?secret=\(s)&secret=\(s)", .keyURIParameter),
            ("otpauth://totp/alice?secret=\(s)&issuer=%G1", .keyURIParameter),
        ]
    }()

    @Test func malformedURIsGiveTheirSpecificError() {
        for (text, expected) in Self.malformed {
            do {
                let parsed = try OTPKeyURI(parsing: text)
                Issue.record("accepted \(parsed) from \(text)")
            } catch {
                #expect(error.code == expected, "\(text)")
                #expect(!error.description.contains(Self.secretBase32), "\(text)")
                #expect(!error.description.lowercased().contains(Self.secretBase32.lowercased().prefix(16)), "\(text)")
            }
        }
        #expect(Self.malformed.count >= 10)
    }

    @Test func buildingRefusesInvalidParts() throws {
        let cases: [(() throws(MFAError) -> OTPKeyURI, MFAError.Code)] = [
            ({ () throws(MFAError) in try OTPKeyURI(kind: .totp(period: 30), secret: Self.secret, account: "") }, .keyURILabel),
            ({ () throws(MFAError) in try OTPKeyURI(kind: .totp(period: 30), secret: Self.secret, account: "a:b") }, .keyURILabel),
            ({ () throws(MFAError) in try OTPKeyURI(kind: .totp(period: 30), secret: Self.secret, account: "a", issuer: "x:y") }, .keyURIIssuer),
            ({ () throws(MFAError) in try OTPKeyURI(kind: .totp(period: 0), secret: Self.secret, account: "a") }, .keyURIPeriod),
            ({ () throws(MFAError) in try OTPKeyURI(kind: .hotp(counter: 1), secret: Self.secret, account: "a", digits: 5) }, .keyURIDigits),
        ]
        for (build, expected) in cases {
            do {
                _ = try build()
                Issue.record("accepted a URI that should be refused with \(expected)")
            } catch {
                #expect(error.code == expected)
            }
        }
    }
}
