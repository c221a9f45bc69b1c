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

/// What `HTTPMessageSigner` writes on a request and what it refuses to write.
@Suite struct MessageSignerTests {
    static let key = MessageSigningKey.hmacSHA256(SymmetricKey(data: Array("a-message-signature-test-secret!".utf8)))
    static let date = Date(timeIntervalSince1970: 1_618_884_473)

    static func request() throws -> AuthRequest {
        try AuthRequest(method: .get, url: #require(URL(string: "https://example.com/items?id=1")), headerFields: [.accept: "application/json"])
    }

    /// The fields of a request signed once are exactly what the signature record says, and a
    /// verifier with the key accepts them.
    @Test func aSignedRequestCarriesItsSignatureAndVerifies() async throws {
        let signer = HTTPMessageSigner(keyID: "k1", key: Self.key, components: [.method, .path, .header("accept")], nonce: { "n-1" })
        var request = try Self.request()
        try await signer.sign(&request, at: Self.date)
        let record = try signer.signature(for: try Self.request(), at: Self.date)
        #expect(request.head.headerFields[HTTPMessageSigner.signatureInputField] == record.signatureInput)
        #expect(request.head.headerFields[HTTPMessageSigner.signatureField] == record.signatureField)
        #expect(record.signatureInput == #"sig1=("@method" "@path" "accept");created=1618884473;nonce="n-1";keyid="k1""#)
        let verifier = HTTPMessageSignatureVerifier(policy: .init(maximumAge: nil), now: { Self.date }) { _ in Self.key.verificationKey }
        #expect(try await verifier.verify(request).base == record.base)
    }

    /// A request signed by a signer labelled `a` (key `k1`, `@method`), then by one labelled `b`
    /// (key `k2`, `@path`); both signers are returned with it.
    static func signedTwice() async throws -> (first: HTTPMessageSigner, second: HTTPMessageSigner, request: AuthRequest) {
        let first = HTTPMessageSigner(label: "a", keyID: "k1", key: key, components: [.method], nonce: nil)
        let second = HTTPMessageSigner(label: "b", keyID: "k2", key: key, components: [.path], nonce: nil)
        var request = try request()
        try await first.sign(&request, at: date)
        try await second.sign(&request, at: date)
        return (first, second, request)
    }

    /// Another label's signature stays; this signer's own label is replaced, not repeated.
    @Test func signingAgainReplacesItsOwnLabelAndKeepsOthers() async throws {
        let (_, second, signed) = try await Self.signedTwice()
        var request = signed
        try await second.sign(&request, at: Self.date.addingTimeInterval(1))
        let input = try #require(request.head.headerFields[HTTPMessageSigner.signatureInputField])
        #expect(input == #"a=("@method");created=1618884473;keyid="k1", b=("@path");created=1618884474;keyid="k2""#)
        let signatures = try #require(request.head.headerFields[HTTPMessageSigner.signatureField])
        #expect(signatures.hasPrefix("a=:") && signatures.contains(", b=:") && signatures.components(separatedBy: "b=").count == 2)
    }

    /// Removing a signature takes this signer's label out of both fields, keeps the others, and
    /// removes a field left empty.
    @Test func removingASignatureKeepsOtherLabels() async throws {
        let (first, second, signed) = try await Self.signedTwice()
        var request = signed
        second.removeSignature(from: &request)
        #expect(request.head.headerFields[HTTPMessageSigner.signatureInputField] == #"a=("@method");created=1618884473;keyid="k1""#)
        #expect(request.head.headerFields[HTTPMessageSigner.signatureField]?.hasPrefix("a=:") == true)
        first.removeSignature(from: &request)
        #expect(request.head.headerFields == [.accept: "application/json"])
    }

    /// A `Content-Digest` that matches the body is kept: the signer adds its algorithms when no
    /// other signature covers the field, and leaves it as it is when one does (changing it would
    /// break that signature). One that does not match the body is replaced.
    @Test func aContentDigestThatMatchesTheBodyIsKept() async throws {
        let body = Data("payload".utf8)
        let sha256 = ContentDigest.value(for: body, algorithms: [.sha256])
        let sha512 = ContentDigest.value(for: body, algorithms: [.sha512])
        let signer = HTTPMessageSigner(label: "b", keyID: "k2", key: Self.key, components: [.header("content-digest")], contentDigest: [.sha512], nonce: nil)
        var request = try AuthRequest(method: .post, url: #require(URL(string: "https://example.com/items")), body: body)

        request.head.headerFields[ContentDigest.fieldName] = sha256
        try await signer.sign(&request, at: Self.date)
        #expect(request.head.headerFields[ContentDigest.fieldName] == sha256 + ", " + sha512)

        request.head.headerFields = [ContentDigest.fieldName: sha256]
        let covering = HTTPMessageSigner(label: "a", keyID: "k1", key: Self.key, components: [.header("content-digest")], nonce: nil)
        try await covering.sign(&request, at: Self.date)
        try await signer.sign(&request, at: Self.date)
        #expect(request.head.headerFields[ContentDigest.fieldName] == sha256)

        request.head.headerFields = [ContentDigest.fieldName: ContentDigest.value(for: Data("stale".utf8))]
        try await signer.sign(&request, at: Self.date)
        #expect(request.head.headerFields[ContentDigest.fieldName] == sha512)
    }

    /// A nonce that cannot be a structured-field string is refused with a typed error, and the
    /// request is left as it was.
    @Test func aNonceThatIsNotPrintableASCIIIsRefused() async throws {
        let signer = HTTPMessageSigner(keyID: "k1", key: Self.key, components: [.method], nonce: { "line\nbreak" })
        var request = try Self.request()
        let error = await #expect(throws: SigningError.self) { try await signer.sign(&request, at: Self.date) }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.message.contains("nonce") == true)
        #expect(request.head.headerFields[HTTPMessageSigner.signatureInputField] == nil)
    }

    /// A component listed twice, a label that is not a key, an empty key id and a validity that
    /// is not a number of seconds an `expires` can hold are refused (not a trap) whenever the
    /// signer is used.
    @Test func anInvalidConfigurationIsRefusedOnEveryUse() async throws {
        let repeated = HTTPMessageSigner(keyID: "k1", key: Self.key, components: [.method, .path, .method])
        let repeatedError = #expect(throws: SigningError.self) { try repeated.signature(for: try Self.request(), at: Self.date) }
        #expect(repeatedError?.message.contains("listed twice") == true)
        for signer in [HTTPMessageSigner(label: "Sig", keyID: "k1", key: Self.key, components: [.method]),
                       HTTPMessageSigner(keyID: "", key: Self.key, components: [.method]),
                       HTTPMessageSigner(keyID: "k1", key: Self.key, components: [.method], validity: .infinity),
                       HTTPMessageSigner(keyID: "k1", key: Self.key, components: [.method], validity: .nan),
                       HTTPMessageSigner(keyID: "k1", key: Self.key, components: [.method], validity: 1e300),
                       HTTPMessageSigner(keyID: "k1", key: Self.key, components: [.method], validity: -5)] {
            for _ in 0..<2 {
                let error = #expect(throws: SigningError.self) { try signer.signature(for: try Self.request(), at: Self.date) }
                #expect(error?.code == .invalidConfiguration)
            }
        }
    }
}
