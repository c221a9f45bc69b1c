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

/// RFC 9421 Appendix B.2 vectors as published in Tests/Vectors/README.md.
@Suite struct MessageSignatureVectorTests {
    static let rawRequest = """
        POST /foo?param=Value&Pet=dog HTTP/1.1
        Host: example.com
        Date: Tue, 20 Apr 2021 02:07:55 GMT
        Content-Type: application/json
        Content-Length: 18

        {"hello": "world"}
        """
    static let created = Date(timeIntervalSince1970: 1_618_884_473)
    static let hmacSecret = "uzvJfB4u3N0Jy4T7NZ75MDVcr8zSTInedJtkgcu46YW4XByzNJjxBdtjUkdJPBtbmHhIDi6pcl8jsasjlTMtDQ=="
    static let ed25519Private = "9f8362f87a484a954e6e740c5b4c0e84229139a20aa8ab56ff66586f6a7d29c5"
    static let ed25519Public = "26b40b8f93fff3d897112f7ebc582b232dbd72517d082fe83cfb30ddce43d1bb"

    static func hexBytes(_ hex: String) -> Data {
        var bytes = Data()
        var index = hex.startIndex
        while index < hex.endIndex, let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex) {
            if let byte = UInt8(hex[index..<next], radix: 16) { bytes.append(byte) }
            index = next
        }
        return bytes
    }

    static func request() throws -> AuthRequest { try TestSupport.parseRawRequest(rawRequest) }

    static func verifier(_ key: MessageVerificationKey, keyID: String, required: [ComponentIdentifier] = []) -> HTTPMessageSignatureVerifier {
        let clock = created.addingTimeInterval(30)
        return HTTPMessageSignatureVerifier(policy: .init(requiredComponents: required), now: { clock }) { id in
            id == keyID ? key : nil
        }
    }

    @Test func b25HMACSHA256() async throws {
        let secret = SymmetricKey(data: try #require(Data(base64Encoded: Self.hmacSecret)))
        let signer = HTTPMessageSigner(
            label: "sig-b25", keyID: "test-shared-secret", key: .hmacSHA256(secret),
            components: [.header("date"), .authority, .header("content-type")], nonce: nil
        )
        var request = try Self.request()
        try await signer.sign(&request, at: Self.created)
        #expect(request.head.headerFields[HTTPMessageSigner.signatureInputField] == #"sig-b25=("date" "@authority" "content-type");created=1618884473;keyid="test-shared-secret""#)
        #expect(request.head.headerFields[HTTPMessageSigner.signatureField] == "sig-b25=:pxcQw6G3AjtMBQjwo8XzkZf/bws5LelbaMk5rGIGtE8=:")

        let verified = try await Self.verifier(.hmacSHA256(secret), keyID: "test-shared-secret", required: [.authority]).verify(request)
        #expect(verified.label == "sig-b25")
        #expect(verified.base == """
            "date": Tue, 20 Apr 2021 02:07:55 GMT
            "@authority": example.com
            "content-type": application/json
            "@signature-params": ("date" "@authority" "content-type");created=1618884473;keyid="test-shared-secret"
            """)
    }

    @Test func b26Ed25519() async throws {
        let privateKey = try Curve25519.Signing.PrivateKey(rawRepresentation: Self.hexBytes(Self.ed25519Private))
        let publicKey = try Curve25519.Signing.PublicKey(rawRepresentation: Self.hexBytes(Self.ed25519Public))
        #expect(privateKey.publicKey.rawRepresentation == publicKey.rawRepresentation)
        let signer = HTTPMessageSigner(
            label: "sig-b26", keyID: "test-key-ed25519", key: .ed25519(privateKey),
            components: [.header("date"), .method, .path, .authority, .header("content-type"), .header("content-length")],
            nonce: nil
        )
        var request = try Self.request()
        try await signer.sign(&request, at: Self.created)
        #expect(request.head.headerFields[HTTPMessageSigner.signatureInputField] == #"sig-b26=("date" "@method" "@path" "@authority" "content-type" "content-length");created=1618884473;keyid="test-key-ed25519""#)
        #if !canImport(Darwin)
        // Ed25519 in BoringSSL is deterministic; Apple's CryptoKit randomizes signatures, so on
        // Apple platforms only the verification below applies.
        #expect(request.head.headerFields[HTTPMessageSigner.signatureField] == "sig-b26=:wqcAqbmYJ2ji2glfAMaRy4gruYYnx2nEFN2HN6jrnDnQCK1u02Gb04v9EDgwUPiu4A0w6vuQv5lIp5WPpBKRCw==:")
        #endif
        try await Self.verifier(.ed25519(publicKey), keyID: "test-key-ed25519", required: [.method, .path]).verify(request)
    }

    @Test func publishedEd25519SignatureVerifies() async throws {
        // The published header values themselves, not ours, must verify.
        var request = try Self.request()
        request.head.headerFields[HTTPMessageSigner.signatureInputField] = #"sig-b26=("date" "@method" "@path" "@authority" "content-type" "content-length");created=1618884473;keyid="test-key-ed25519""#
        request.head.headerFields[HTTPMessageSigner.signatureField] = "sig-b26=:wqcAqbmYJ2ji2glfAMaRy4gruYYnx2nEFN2HN6jrnDnQCK1u02Gb04v9EDgwUPiu4A0w6vuQv5lIp5WPpBKRCw==:"
        let publicKey = try Curve25519.Signing.PublicKey(rawRepresentation: Self.hexBytes(Self.ed25519Public))
        try await Self.verifier(.ed25519(publicKey), keyID: "test-key-ed25519").verify(request)
        request.head.path = "/foo?param=Value&Pet=cat"
        request.head.method = .put
        await #expect(throws: SigningError.self) {
            try await Self.verifier(.ed25519(publicKey), keyID: "test-key-ed25519").verify(request)
        }
    }

    @Test func ecdsaP256RoundTripWithRawSignature() async throws {
        let privateKey = P256.Signing.PrivateKey()
        let signer = HTTPMessageSigner(
            label: "sig1", keyID: "p256", key: .ecdsaP256SHA256(privateKey),
            components: [.method, .targetURI, .header("content-digest")], includesAlgorithm: true,
            validity: 300, tag: "app", contentDigest: [.sha256]
        )
        var request = try Self.request()
        try await signer.sign(&request, at: Self.created)
        let signature = try signer.signature(for: request, at: Self.created)
        #expect(signature.signature.count == 64)
        let input = try #require(request.head.headerFields[HTTPMessageSigner.signatureInputField])
        #expect(input.contains(#";alg="ecdsa-p256-sha256";keyid="p256";tag="app""#))
        #expect(input.contains(";expires=1618884773;nonce=\""))
        let verifier = HTTPMessageSignatureVerifier(
            policy: .init(requiredComponents: [.header("content-digest")], requiredTag: "app"),
            now: { Self.created.addingTimeInterval(10) }
        ) { id in id == "p256" ? .ecdsaP256SHA256(privateKey.publicKey) : nil }
        let verified = try await verifier.verify(request)
        #expect(verified.keyID == "p256")

        var changedBody = request
        changedBody.body = Data(#"{"hello": "mallory"}"#.utf8)
        #expect(await caught(SigningError.self) { try await verifier.verify(changedBody) }?.code == .contentDigestMismatch)

        let late = HTTPMessageSignatureVerifier(policy: .init(maximumAge: nil), now: { Self.created.addingTimeInterval(1000) }) { _ in
            .ecdsaP256SHA256(privateKey.publicKey)
        }
        #expect(await caught(SigningError.self) { try await late.verify(request) }?.code == .expired)

        let wrongKey = HTTPMessageSignatureVerifier(now: { Self.created }) { _ in .ed25519(Curve25519.Signing.PrivateKey().publicKey) }
        #expect(await caught(SigningError.self) { try await wrongKey.verify(request) }?.code == .algorithmMismatch)
    }
}
