// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Foundation
import Testing

/// The pin set's rules, as pure logic: what a configuration must hold, which entry applies to a
/// host, and what a check decides. (The pins on real connections: IntegrationTests'
/// `CertificatePinningTests`.)
struct CertificatePinningRulesTests {
    /// A pin of 32 bytes, all `byte`.
    static func pin(_ byte: UInt8) -> String { Data(repeating: byte, count: 32).base64EncodedString() }

    @Test func aHostNeedsABackupPin() {
        for pins in [[Self.pin(1)], [Self.pin(1), Self.pin(1)], [Self.pin(1), "sha256/" + Self.pin(1)]] {
            let error = #expect(throws: AuthError.self) { try CertificatePinning(pins: ["api.example.com": pins]) }
            #expect(error?.code == .misconfigured && error?.message.contains("backup") == true)
        }
        #expect(throws: Never.self) { try CertificatePinning(pins: ["api.example.com": [Self.pin(1), "sha256/" + Self.pin(2)]]) }
    }

    @Test func malformedPinsAndHostsAreRefusedByName() {
        let cases: [[String: [String]]] = [
            [:],
            ["api.example.com": [Self.pin(1), "not base64!"]],
            ["api.example.com": [Self.pin(1), Data(repeating: 2, count: 20).base64EncodedString()]],  // SHA-1 length
            ["*.com": [Self.pin(1), Self.pin(2)]],
            ["api.*.com": [Self.pin(1), Self.pin(2)]],
            ["https://api.example.com": [Self.pin(1), Self.pin(2)]],
            ["": [Self.pin(1), Self.pin(2)]],
        ]
        for pins in cases {
            do {
                _ = try CertificatePinning(pins: pins)
                Issue.record("accepted \(pins)")
            } catch {
                #expect(error.code == .misconfigured)
            }
        }
    }

    @Test func aHostsOwnEntryComesBeforePatternsAndALongerPatternBeforeAShorterOne() throws {
        let pinning = try CertificatePinning(pins: [
            "*.example.com": [Self.pin(1), Self.pin(2)],
            "*.eu.example.com": [Self.pin(3), Self.pin(4)],
            "login.eu.example.com": [Self.pin(5), Self.pin(6)],
        ])
        #expect(pinning.entry(forHost: "api.example.com")?.pattern == "*.example.com")
        #expect(pinning.entry(forHost: "a.b.example.com")?.pattern == "*.example.com")
        #expect(pinning.entry(forHost: "API.EU.Example.com")?.pattern == "*.eu.example.com")
        #expect(pinning.entry(forHost: "login.eu.example.com")?.pattern == "login.eu.example.com")
        #expect(pinning.entry(forHost: "example.com") == nil)
        #expect(pinning.entry(forHost: "badexample.com") == nil)
        #expect(pinning.entry(forHost: "example.com.evil.org") == nil)
    }

    /// A host written fully qualified, with its final dot, is the same host: TLS checks the
    /// certificate's name without the dot, and the pins applied to neither form of it.
    @Test func aFullyQualifiedHostIsPinnedToo() throws {
        let pinning = try CertificatePinning(pins: ["*.example.com": [Self.pin(1), Self.pin(2)], "login.example.org": [Self.pin(3), Self.pin(4)]])
        #expect(pinning.entry(forHost: "api.example.com.")?.pattern == "*.example.com")
        #expect(pinning.entry(forHost: "LOGIN.example.org.")?.pattern == "login.example.org")
        #expect(pinning.entry(forHost: "example.com.") == nil)
        #expect(pinning.entry(forHost: ".") == nil)
    }

    @Test func aCheckMatchesExpiresAndReports() async throws {
        let key = Data("a public key".utf8)
        let pin = CertificatePinning.pin(ofSubjectPublicKeyInfo: key)
        let now = Date(timeIntervalSince1970: 1_000_000)
        let events = AuthEvents()
        let observed = events.stream()
        let enforced = try CertificatePinning(pins: ["api.example.com": [pin, Self.pin(9)]], expires: now + 60, events: events, now: { now })
        let entry = try #require(enforced.entry(forHost: "api.example.com"))
        #expect(enforced.check(subjectPublicKeyInfo: key, against: entry) == .matched)
        #expect(enforced.check(subjectPublicKeyInfo: Data("another key".utf8), against: entry) == .mismatch(enforced: true))

        let later = try CertificatePinning(pins: ["api.example.com": [pin, Self.pin(9)]], expires: now, events: events, now: { now })
        #expect(later.check(subjectPublicKeyInfo: Data("another key".utf8), against: entry) == .expired)

        let reporting = try CertificatePinning(pins: ["api.example.com": [pin, Self.pin(9)]], mode: .reportOnly, events: events, now: { now })
        #expect(reporting.check(subjectPublicKeyInfo: Data("another key".utf8), against: entry) == .mismatch(enforced: false))

        events.emit(.signedOut(AccountKey(namespace: "test", account: "marker")))
        var received: [AuthEvent] = []
        for await event in observed {
            if case .signedOut = event { break }
            received.append(event)
        }
        let other = CertificatePinning.pin(ofSubjectPublicKeyInfo: Data("another key".utf8))
        #expect(received == [
            .pinMismatch(PinMismatch(host: "api.example.com", presentedPin: other, enforced: true)),
            .pinMismatch(PinMismatch(host: "api.example.com", presentedPin: other, enforced: false)),
        ])
    }

    @Test func aBoundTokensThumbprintIsReadFromItsClaims() {
        func jwt(_ claims: String) -> String {
            let encode = { (text: String) in
                Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            }
            return encode(#"{"alg":"HS256"}"#) + "." + encode(claims) + ".c2ln"
        }
        #expect(CertificateBinding.requiredThumbprint(authorization: "Bearer " + jwt(#"{"cnf":{"x5t#S256":"abc"}}"#)) == "abc")
        #expect(CertificateBinding.requiredThumbprint(authorization: "bearer " + jwt(#"{"cnf":{"x5t#S256":"abc"}}"#)) == "abc")
        // A malformed binding refuses the token: no certificate has an empty thumbprint.
        #expect(CertificateBinding.requiredThumbprint(authorization: "Bearer " + jwt(#"{"cnf":{"x5t#S256":7}}"#)) == "")
        // So does a confirmation that is not an object (RFC 7800 §3.1): it was read as no binding.
        #expect(CertificateBinding.requiredThumbprint(authorization: "Bearer " + jwt(#"{"cnf":"abc"}"#)) == "")
        #expect(CertificateBinding.requiredThumbprint(authorization: "Bearer " + jwt(#"{"cnf":[{"x5t#S256":"abc"}]}"#)) == "")
        #expect(CertificateBinding.requiredThumbprint(authorization: "Bearer " + jwt(#"{"cnf":{"jkt":"abc"}}"#)) == nil)
        #expect(CertificateBinding.requiredThumbprint(authorization: "Bearer " + jwt(#"{"sub":"a"}"#)) == nil)
        #expect(CertificateBinding.requiredThumbprint(authorization: "Bearer opaque-token") == nil)
        #expect(CertificateBinding.requiredThumbprint(authorization: "Basic " + jwt(#"{"cnf":{"x5t#S256":"abc"}}"#)) == nil)
        // The claims are parsed only when they can hold `cnf`: a member name spelled with JSON
        // escapes holds no `cnf` in its text, and is still found.
        #expect(CertificateBinding.requiredThumbprint(authorization: "Bearer " + jwt(#"{"c\u006ef":{"x5t\u0023S256":"abc"}}"#)) == "abc")
        #expect(CertificateBinding.requiredThumbprint(authorization: "BEARER \t" + jwt(#"{"cnf":{"x5t#S256":"abc"}}"#) + " ") == "abc")
    }
}
