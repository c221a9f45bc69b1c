// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Foundation
import Testing
@testable import AuthMFA

@Suite struct RedactionTests {
    static let secretBytes = Array("12345678901234567890".utf8)
    static let secretBase32 = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"

    /// Every textual view a user or a log could get of `value`.
    static func renderings(_ value: Any) -> [String] {
        var dumped = ""
        dump(value, to: &dumped)
        var debugDumped = ""
        debugPrint(value, to: &debugDumped)
        return [String(describing: value), String(reflecting: value), dumped, debugDumped, "\(value)"]
    }

    /// The secret's forms that must not appear: base32, ASCII, decimal and hex bytes.
    static func forbidden(for bytes: [UInt8]) -> [String] {
        [
            Base32.encode(bytes, padding: false),
            String(decoding: bytes, as: UTF8.self),
            bytes.map(String.init).joined(separator: ", "),
            bytes.map { String(format: "%02x", $0) }.joined(),
        ]
    }

    /// Whether the numbers written in `text`, in order, contain `bytes` as a run (as `dump` of
    /// a byte array prints them, one per line).
    static func containsByteRun(_ text: String, _ bytes: [UInt8]) -> Bool {
        let numbers = text.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        guard numbers.count >= bytes.count, !bytes.isEmpty else { return false }
        let target = bytes.map(Int.init)
        return (0...(numbers.count - target.count)).contains { Array(numbers[$0..<($0 + target.count)]) == target }
    }

    static func expectRedacted(_ value: Any, bytes: [UInt8] = secretBytes, extra: [String] = [], sourceLocation: SourceLocation = #_sourceLocation) {
        for text in renderings(value) {
            for secret in forbidden(for: bytes) + extra {
                #expect(!text.contains(secret), "\(type(of: value)) shows a secret", sourceLocation: sourceLocation)
            }
            #expect(!containsByteRun(text, bytes), "\(type(of: value)) shows the secret bytes", sourceLocation: sourceLocation)
        }
    }

    @Test func byteRunCheckDetectsADumpedArray() {
        var dumped = ""
        dump(Self.secretBytes, to: &dumped)
        #expect(Self.containsByteRun(dumped, Self.secretBytes))
        #expect(!Self.containsByteRun("20 bytes", Self.secretBytes))
    }

    @Test func secretsGeneratorsAndURIsAreRedacted() throws {
        let secret = try OTPSecret(bytes: Self.secretBytes)
        let totp = try TOTP(secret: secret, digits: 8)
        let hotp = try HOTP(secret: secret)
        let uri = try OTPKeyURI(totp: totp, account: "alice", issuer: "Example")
        #expect(uri.uriString.contains(Self.secretBase32))  // the URI text itself has it, on purpose
        Self.expectRedacted(secret)
        Self.expectRedacted(totp)
        Self.expectRedacted(hotp)
        Self.expectRedacted(uri)
        Self.expectRedacted([secret])  // inside a collection, dump uses the custom mirror too
        Self.expectRedacted(TOTPCodeProvider(totp: totp))
        #expect(String(describing: totp).contains("8 digits"))
        #expect(String(describing: uri).contains("alice"))
    }

    @Test func generatedSecretIsRedacted() throws {
        let secret = try OTPSecret.generate()
        Self.expectRedacted(secret, bytes: secret.bytes)
        Self.expectRedacted(try TOTP(secret: secret), bytes: secret.bytes)
    }

    @Test func recoveryCodesAndTheirSetAreRedacted() {
        let codes = RecoveryCode.generate(count: 4)
        let forms = codes.flatMap { [$0.normalized, $0.formatted] }
        for code in codes { Self.expectRedacted(code, extra: forms) }
        Self.expectRedacted(codes, extra: forms)
        let set = RecoveryCodeSet(codes: codes)
        Self.expectRedacted(set, extra: forms + set.entries.map { $0.hash.base64EncodedString() })
        #expect(String(describing: set).contains("4 codes"))
    }

    @Test func challengeIdIsRedacted() {
        let challenge = MFAChallenge(id: "chal_7f3a9c2e51", methods: [.totp, .recoveryCode], expiresAt: Date(timeIntervalSince1970: 0))
        Self.expectRedacted(challenge, extra: ["chal_7f3a9c2e51"])
        #expect(String(describing: challenge).contains("recovery_code"))
    }

    @Test func storeBackedHelpersShowNoSecret() async throws {
        let store = InMemoryCredentialStore()
        let account = AccountKey(namespace: "example", account: "alice")
        let vault = TOTPSecretVault(store: store)
        try await vault.save(try TOTP(secret: OTPSecret(bytes: Self.secretBytes)), for: account)
        Self.expectRedacted(vault)
        Self.expectRedacted(TOTPCodeProvider(vault: vault, account: account))
        Self.expectRedacted(TOTPVerifier(store: store))
        Self.expectRedacted(OTPReplayGuard(store: store))
        Self.expectRedacted(RecoveryCodeVault(store: store))
        let loaded = try #require(try await vault.load(for: account))
        #expect(loaded.secret.bytes == Self.secretBytes)
        Self.expectRedacted(loaded)
    }

    @Test func errorsDoNotShowTheSecret() throws {
        let uriError: (any Error)? = {
            do { _ = try OTPKeyURI(parsing: "otpauth://totp/a?secret=\(Self.secretBase32)&digits=12"); return nil } catch { return error }
        }()
        let error = try #require(uriError)
        Self.expectRedacted(error)
    }
}
