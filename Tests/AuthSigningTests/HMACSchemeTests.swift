// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthSigning
import Crypto
import Foundation
import HTTPTypes
import Testing

/// The HMAC-SHA256 scheme: sign → verify, replay, body change, clock tolerance.
@Suite struct HMACSchemeTests {
    static let key = SymmetricKey(data: Data("0123456789abcdef0123456789abcdef".utf8))
    static let start = Date(timeIntervalSince1970: 1_700_000_000)

    static func request() throws -> AuthRequest {
        try AuthRequest(method: .post, url: #require(URL(string: "https://api.example.com/v1/items?b=2&a=1&a=0")), body: Data(#"{"name":"x"}"#.utf8))
    }

    static func verifier(clock: ManualClock, cache: NonceCache = NonceCache(capacity: 100, retention: 600)) -> HMACRequestVerifier {
        HMACRequestVerifier(nonceCache: cache, now: clock.closure) { id in id == "client-1" ? key : nil }
    }

    @Test func signThenVerify() async throws {
        let clock = ManualClock(Self.start)
        var request = try Self.request()
        try await HMACRequestSigner(keyID: "client-1", key: Self.key, nonce: { "fixed-nonce" }).sign(&request, at: clock.now)
        let fields = request.head.headerFields
        #expect(fields[try .named("X-Timestamp")] == "1700000000")
        #expect(fields[try .named("X-Nonce")] == "fixed-nonce")
        #expect(fields[try .named("X-Key-Id")] == "client-1")
        // The documented string to sign, computed independently here.
        let bodyHash = SHA256.hash(data: request.body).map { String(format: "%02x", $0) }.joined()
        let expected = "POST\n/v1/items\na=0&a=1&b=2\n1700000000\nfixed-nonce\n\(bodyHash)"
        let mac = HMAC<SHA256>.authenticationCode(for: Data(expected.utf8), using: Self.key)
        #expect(fields[try .named("X-Signature")] == Data(mac).base64EncodedString())
        #expect(try await Self.verifier(clock: clock).verify(request) == "client-1")
    }

    /// The signer keeps the key's HMAC state; keys of every length (RFC 2104 hashes those
    /// longer than a block) give the MAC swift-crypto's `HMAC` gives.
    @Test(arguments: [0, 1, 32, 63, 64, 65, 200])
    func everyKeyLengthGivesTheStandardMAC(length: Int) async throws {
        let key = SymmetricKey(data: Data((0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }))
        var request = try Self.request()
        try await HMACRequestSigner(keyID: "k", key: key, nonce: { "n" }).sign(&request, at: Self.start)
        let text = HMACSigningConfiguration().stringToSign(for: request, timestamp: "1700000000", nonce: "n")
        let mac = HMAC<SHA256>.authenticationCode(for: Data(text.utf8), using: key)
        #expect(request.head.headerFields[try .named("X-Signature")] == Data(mac).base64EncodedString())
    }

    @Test func replayedNonceIsRefused() async throws {
        let clock = ManualClock(Self.start)
        let verifier = Self.verifier(clock: clock)
        var request = try Self.request()
        try await HMACRequestSigner(keyID: "client-1", key: Self.key).sign(&request, at: clock.now)
        try await verifier.verify(request)
        clock.advance(5)
        let error = await caught(SigningError.self) { try await verifier.verify(request) }
        #expect(error?.code == .replayedNonce)
    }

    @Test func changedBodyIsRefused() async throws {
        let clock = ManualClock(Self.start)
        var request = try Self.request()
        try await HMACRequestSigner(keyID: "client-1", key: Self.key).sign(&request, at: clock.now)
        request.body = Data(#"{"name":"y"}"#.utf8)
        let withDigest = await caught(SigningError.self) { try await Self.verifier(clock: clock).verify(request) }
        #expect(withDigest?.code == .bodyDigestMismatch)

        // Without the digest field the signature itself catches it.
        let configuration = HMACSigningConfiguration(bodyDigestField: nil)
        var plain = try Self.request()
        try await HMACRequestSigner(keyID: "client-1", key: Self.key, configuration: configuration).sign(&plain, at: clock.now)
        plain.body = Data("other".utf8)
        let verifier = HMACRequestVerifier(configuration: configuration, now: clock.closure) { _ in Self.key }
        let error = await caught(SigningError.self) { try await verifier.verify(plain) }
        #expect(error?.code == .badSignature)
    }

    @Test(arguments: [-301.0, 301.0, 3600.0])
    func timestampOutsideToleranceIsRefused(offset: TimeInterval) async throws {
        let clock = ManualClock(Self.start)
        var request = try Self.request()
        try await HMACRequestSigner(keyID: "client-1", key: Self.key).sign(&request, at: clock.now)
        clock.advance(offset)
        let error = await caught(SigningError.self) { try await Self.verifier(clock: clock).verify(request) }
        #expect(error?.code == .expired)
    }

    @Test func otherFailuresAreTyped() async throws {
        let clock = ManualClock(Self.start)
        var request = try Self.request()
        try await HMACRequestSigner(keyID: "client-1", key: Self.key).sign(&request, at: clock.now)

        var missing = request
        missing.head.headerFields[try .named("X-Nonce")] = nil
        #expect(await caught(SigningError.self) { try await Self.verifier(clock: clock).verify(missing) }?.code == .missingHeader)

        var badTime = request
        badTime.head.headerFields[try .named("X-Timestamp")] = "yesterday"
        #expect(await caught(SigningError.self) { try await Self.verifier(clock: clock).verify(badTime) }?.code == .badTimestamp)

        var unknown = request
        unknown.head.headerFields[try .named("X-Key-Id")] = "client-2"
        #expect(await caught(SigningError.self) { try await Self.verifier(clock: clock).verify(unknown) }?.code == .unknownKey)

        var forged = request
        forged.head.path = "/v1/items?a=1"
        let error = await caught(SigningError.self) { try await Self.verifier(clock: clock).verify(forged) }
        #expect(error?.code == .badSignature)
        let text = error.map { String(describing: $0) } ?? ""
        #expect(!text.contains("0123456789abcdef"))
    }

    /// A verifier that accepts older requests than its nonce cache remembers (tolerance 900 s,
    /// retention 600 s) took a captured request again once the cache had forgotten its nonce.
    @Test func aRequestOlderThanTheCacheRemembersIsARefusedReplay() async throws {
        let clock = ManualClock(Self.start)
        let verifier = HMACRequestVerifier(tolerance: 900, nonceCache: NonceCache(capacity: 100, retention: 600), now: clock.closure) { id in id == "client-1" ? Self.key : nil }
        var request = try Self.request()
        try await HMACRequestSigner(keyID: "client-1", key: Self.key).sign(&request, at: clock.now)
        try await verifier.verify(request)
        clock.advance(700)
        let error = await caught(SigningError.self) { try await verifier.verify(request) }
        #expect(error?.code == .replayedNonce)
        // Nor is a request that old accepted the first time: the cache cannot vouch for it.
        var late = try Self.request()
        try await HMACRequestSigner(keyID: "client-1", key: Self.key).sign(&late, at: clock.now.addingTimeInterval(-650))
        #expect(await caught(SigningError.self) { try await verifier.verify(late) }?.code == .replayedNonce)
    }

    @Test func fullNonceCacheFailsClosed() {
        let cache = NonceCache(capacity: 2, retention: 600)
        let t = Self.start
        #expect(cache.insert(nonce: "a", keyID: "k", timestamp: t, now: t) == .accepted)
        #expect(cache.insert(nonce: "b", keyID: "k", timestamp: t.addingTimeInterval(1), now: t) == .accepted)
        #expect(cache.insert(nonce: "c", keyID: "k", timestamp: t.addingTimeInterval(2), now: t) == .accepted)
        #expect(cache.count == 2)
        // "a" was evicted; its replay is still refused because it is older than the eviction horizon.
        #expect(cache.insert(nonce: "a", keyID: "k", timestamp: t, now: t) == .replayed)
        #expect(cache.insert(nonce: "c", keyID: "k", timestamp: t.addingTimeInterval(2), now: t) == .replayed)
        #expect(cache.insert(nonce: "c", keyID: "other", timestamp: t.addingTimeInterval(2), now: t) == .accepted)
    }
}
