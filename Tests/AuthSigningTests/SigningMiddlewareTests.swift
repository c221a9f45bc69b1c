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
import Synchronization
import Testing

/// The signing middleware re-signs every attempt with a fresh timestamp and nonce.
@Suite struct SigningMiddlewareTests {
    @Test func retriedRequestIsSignedAgain() async throws {
        let key = SymmetricKey(data: Data("middleware-test-key-0123456789ab".utf8))
        let clock = ManualClock(Date(timeIntervalSince1970: 1_700_000_000))
        let verifier = HMACRequestVerifier(now: clock.closure) { _ in key }
        let seen = Mutex<[AuthRequest]>([])
        let transport = ClosureTransport { request in
            let attempt = seen.withLock { $0.append(request); return $0.count }
            return AuthResponse(status: attempt == 1 ? .serviceUnavailable : .ok)
        }
        let middleware = SigningMiddleware(signer: HMACRequestSigner(keyID: "client-1", key: key), allowedHosts: AllowedHosts(["api.example.com"]), now: clock.closure)
        // A tiny retry loop outside the signing middleware, as the real retry middleware sits.
        let request = try AuthRequest(method: .get, url: #require(URL(string: "https://api.example.com/items")))
        var response = try await middleware.intercept(request, next: { try await transport.send($0) })
        var attempts = 1
        while response.status == .serviceUnavailable, attempts < 3 {
            clock.advance(2)
            response = try await middleware.intercept(request, next: { try await transport.send($0) })
            attempts += 1
        }
        #expect(response.status == .ok)
        let sent = seen.withLock { $0 }
        try #require(sent.count == 2)
        let signature = try HTTPField.Name.named("X-Signature")
        let nonce = try HTTPField.Name.named("X-Nonce")
        let timestamp = try HTTPField.Name.named("X-Timestamp")
        #expect(sent[0].head.headerFields[signature] != sent[1].head.headerFields[signature])
        #expect(sent[0].head.headerFields[nonce] != sent[1].head.headerFields[nonce])
        #expect(sent[0].head.headerFields[timestamp] == "1700000000")
        #expect(sent[1].head.headerFields[timestamp] == "1700000002")
        for request in sent { try await verifier.verify(request) }
    }

    @Test func staleSignatureFieldsAreReplacedNotDuplicated() async throws {
        let key = SymmetricKey(data: Data("another-test-key-0123456789abcdef".utf8))
        let signer = HTTPMessageSigner(keyID: "k", key: .hmacSHA256(key), components: [.method, .targetURI, .header("content-digest")], contentDigest: [.sha256])
        let clock = ManualClock(Date(timeIntervalSince1970: 1_700_000_000))
        let middleware = SigningMiddleware(signer: signer, allowedHosts: AllowedHosts(["api.example.com"]), now: clock.closure)
        let captured = Mutex<AuthRequest?>(nil)
        var request = try AuthRequest(method: .post, url: #require(URL(string: "https://api.example.com/a")), body: Data("one".utf8))
        _ = try await middleware.intercept(request) { hop in captured.withLock { $0 = hop }; return AuthResponse(status: .ok) }
        // A redirect hop: the previous hop's fields are still on the request, the body changed.
        request = try #require(captured.withLock { $0 })
        request.head.path = "/b"
        request.body = Data("two".utf8)
        clock.advance(1)
        _ = try await middleware.intercept(request) { hop in captured.withLock { $0 = hop }; return AuthResponse(status: .ok) }
        let second = try #require(captured.withLock { $0 })
        #expect(second.head.headerFields[values: HTTPMessageSigner.signatureInputField].count == 1)
        #expect(second.head.headerFields[values: HTTPMessageSigner.signatureField].count == 1)
        #expect(second.head.headerFields[values: ContentDigest.fieldName] == [ContentDigest.value(for: Data("two".utf8))])
        let verifier = HTTPMessageSignatureVerifier(now: clock.closure) { _ in .hmacSHA256(key) }
        let verified = try await verifier.verify(second)
        #expect(verified.base.contains(#""@target-uri": https://api.example.com/b"#))
    }
}
