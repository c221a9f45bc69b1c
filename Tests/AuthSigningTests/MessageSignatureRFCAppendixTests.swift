// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthSigning
import Crypto
import CryptoExtras
import Foundation
import HTTPTypes
import Testing

/// RFC 9421 Appendix B.2.1–B.2.3 (rsa-pss-sha512, key `test-key-rsa-pss` of B.1.2), the other
/// RSA and ECDSA algorithms of §3.3, and the `;sf` and `;key` component parameters of §2.1.1 and
/// §2.1.2, with the RFC's published values.
@Suite struct MessageSignatureRFCAppendixTests {
    /// RFC 9421 B.1.2, `test-key-rsa-pss` (public part).
    static let rsaPSSPublicKey = """
        -----BEGIN PUBLIC KEY-----
        MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAr4tmm3r20Wd/PbqvP1s2
        +QEtvpuRaV8Yq40gjUR8y2Rjxa6dpG2GXHbPfvMs8ct+Lh1GH45x28Rw3Ry53mm+
        oAXjyQ86OnDkZ5N8lYbggD4O3w6M6pAvLkhk95AndTrifbIFPNU8PPMO7OyrFAHq
        gDsznjPFmTOtCEcN2Z1FpWgchwuYLPL+Wokqltd11nqqzi+bJ9cvSKADYdUAAN5W
        Utzdpiy6LbTgSxP7ociU4Tn0g5I6aDZJ7A8Lzo0KSyZYoA485mqcO0GVAdVw9lq4
        aOT9v6d+nb4bnNkQVklLQ3fVAvJm+xdDOp9LCNCN48V2pnDOkFV6+U9nV5oyc6XI
        2wIDAQAB
        -----END PUBLIC KEY-----
        """
    /// The B.2 request with the Content-Digest of Appendix B.2.
    static let contentDigest = "sha-512=:WZDPaVn/7XgHaAy8pmojAkGWoRx2UFChF41A2svX+TaPm+AbwAgBWnrIiYllu7BNNyealdVLvRwEmTHWXvJwew==:"

    static func request() throws -> AuthRequest {
        var request = try MessageSignatureVectorTests.request()
        request.head.headerFields[try .named("Content-Digest")] = contentDigest
        return request
    }

    static func verifier(_ key: MessageVerificationKey) -> HTTPMessageSignatureVerifier {
        let clock = MessageSignatureVectorTests.created.addingTimeInterval(30)
        return HTTPMessageSignatureVerifier(now: { clock }) { id in id == "test-key-rsa-pss" ? key : nil }
    }

    static let published: [(label: String, input: String, signature: String, base: String)] = [
        ("sig-b21", #"sig-b21=();created=1618884473;keyid="test-key-rsa-pss";nonce="b3k2pp5k7z-50gnwp.yemd""#,
         "sig-b21=:d2pmTvmbncD3xQm8E9ZV2828BjQWGgiwAaw5bAkgibUopemLJcWDy/lkbbHAve4cRAtx31Iq786U7it++wgGxbtRxf8Udx7zFZsckzXaJMkA7ChG52eSkFxykJeNqsrWH5S+oxNFlD4dzVuwe8DhTSja8xxbR/Z2cOGdCbzR72rgFWhzx2VjBqJzsPLMIQKhO4DGezXehhWwE56YCE+O6c0mKZsfxVrogUvA4HELjVKWmAvtl6UnCh8jYzuVG5WSb/QEVPnP5TmcAnLH1g+s++v6d4s8m0gCw1fV5/SITLq9mhho8K3+7EPYTU8IU1bLhdxO5Nyt8C8ssinQ98Xw9Q==:",
         #""@signature-params": ();created=1618884473;keyid="test-key-rsa-pss";nonce="b3k2pp5k7z-50gnwp.yemd""#),
        ("sig-b22", #"sig-b22=("@authority" "content-digest" "@query-param";name="Pet");created=1618884473;keyid="test-key-rsa-pss";tag="header-example""#,
         "sig-b22=:LjbtqUbfmvjj5C5kr1Ugj4PmLYvx9wVjZvD9GsTT4F7GrcQEdJzgI9qHxICagShLRiLMlAJjtq6N4CDfKtjvuJyE5qH7KT8UCMkSowOB4+ECxCmT8rtAmj/0PIXxi0A0nxKyB09RNrCQibbUjsLS/2YyFYXEu4TRJQzRw1rLEuEfY17SARYhpTlaqwZVtR8NV7+4UKkjqpcAoFqWFQh62s7Cl+H2fjBSpqfZUJcsIk4N6wiKYd4je2U/lankenQ99PZfB4jY3I5rSV2DSBVkSFsURIjYErOs0tFTQosMTAoxk//0RoKUqiYY8Bh0aaUEb0rQl3/XaVe4bXTugEjHSw==:",
         """
         "@authority": example.com
         "content-digest": \(contentDigest)
         "@query-param";name="Pet": dog
         "@signature-params": ("@authority" "content-digest" "@query-param";name="Pet");created=1618884473;keyid="test-key-rsa-pss";tag="header-example"
         """),
        ("sig-b23", #"sig-b23=("date" "@method" "@path" "@query" "@authority" "content-type" "content-digest" "content-length");created=1618884473;keyid="test-key-rsa-pss""#,
         "sig-b23=:bbN8oArOxYoyylQQUU6QYwrTuaxLwjAC9fbY2F6SVWvh0yBiMIRGOnMYwZ/5MR6fb0Kh1rIRASVxFkeGt683+qRpRRU5p2voTp768ZrCUb38K0fUxN0O0iC59DzYx8DFll5GmydPxSmme9v6ULbMFkl+V5B1TP/yPViV7KsLNmvKiLJH1pFkh/aYA2HXXZzNBXmIkoQoLd7YfW91kE9o/CCoC1xMy7JA1ipwvKvfrs65ldmlu9bpG6A9BmzhuzF8Eim5f8ui9eH8LZH896+QIF61ka39VBrohr9iyMUJpvRX2Zbhl5ZJzSRxpJyoEZAFL2FUo5fTIztsDZKEgM4cUA==:",
         """
         "date": Tue, 20 Apr 2021 02:07:55 GMT
         "@method": POST
         "@path": /foo
         "@query": ?param=Value&Pet=dog
         "@authority": example.com
         "content-type": application/json
         "content-digest": \(contentDigest)
         "content-length": 18
         "@signature-params": ("date" "@method" "@path" "@query" "@authority" "content-type" "content-digest" "content-length");created=1618884473;keyid="test-key-rsa-pss"
         """),
    ]

    @Test(arguments: 0..<3)
    func publishedRSAPSSSignaturesVerify(index: Int) async throws {
        let vector = Self.published[index]
        let key = MessageVerificationKey.rsaPSSSHA512(try _RSA.Signing.PublicKey(pemRepresentation: Self.rsaPSSPublicKey))
        var request = try Self.request()
        request.head.headerFields[HTTPMessageSigner.signatureInputField] = vector.input
        request.head.headerFields[HTTPMessageSigner.signatureField] = vector.signature
        let verified = try await Self.verifier(key).verify(request)
        #expect(verified.label == vector.label)
        #expect(verified.base == vector.base)
        // A changed covered component, or signature parameter, breaks it.
        request.head.path = "/foo?param=Value&Pet=cat"
        request.head.headerFields[HTTPMessageSigner.signatureInputField] = vector.input.replacingOccurrences(of: "created=1618884473", with: "created=1618884472")
        await #expect(throws: SigningError.self) { try await Self.verifier(key).verify(request) }
    }

    @Test func everyAlgorithmSignsAndVerifies() async throws {
        let rsa = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let keys: [MessageSigningKey] = [
            .rsaPSSSHA512(rsa), .rsaV15SHA256(rsa), .ecdsaP384SHA384(P384.Signing.PrivateKey()),
            .ecdsaP256SHA256(P256.Signing.PrivateKey()), .ed25519(Curve25519.Signing.PrivateKey()),
            .hmacSHA256(SymmetricKey(size: .bits256)),
        ]
        #expect(Set(keys.map(\.algorithm)) == Set(MessageSignatureAlgorithm.allCases))
        for key in keys {
            let signer = HTTPMessageSigner(keyID: "k", key: key, components: [.method, .path, .authority], includesAlgorithm: true)
            var request = try Self.request()
            try await signer.sign(&request, at: MessageSignatureVectorTests.created)
            let verifier = HTTPMessageSignatureVerifier(now: { MessageSignatureVectorTests.created }) { _ in key.verificationKey }
            let verified = try await verifier.verify(request)
            #expect(verified.parameters["alg"] == .string(key.algorithm.rawValue))
            if key.algorithm == .ecdsaP384SHA384 { #expect(verified.signature.count == 96) }
            if key.algorithm == .rsaPSSSHA512 || key.algorithm == .rsaV15SHA256 { #expect(verified.signature.count == 256) }
            request.head.method = .put
            await #expect(throws: SigningError.self) { try await verifier.verify(request) }
            #expect(!String(describing: key).contains("BEGIN"))
        }
    }

    /// RFC 9421 §2.1.1 and §2.1.2 with the RFC's `Example-Dict` field.
    @Test func structuredAndDictionaryMemberComponents() throws {
        var head = try Self.request().head
        head.headerFields[try .named("Example-Dict")] = " a=1,    b=2;x=1;y=2,   c=(a   b   c), d"
        let kinds = StructuredFieldKind.registered.merging(["example-dict": .dictionary]) { $1 }
        func value(_ component: ComponentIdentifier) throws -> String {
            try SignatureBase.value(of: component, in: .request(head), structuredFields: kinds)
        }
        #expect(try value(.header("example-dict")) == "a=1,    b=2;x=1;y=2,   c=(a   b   c), d")
        #expect(try value(.header("example-dict", structured: true)) == "a=1, b=2;x=1;y=2, c=(a b c), d")
        #expect(try value(.dictionaryMember("a", of: "example-dict")) == "1")
        #expect(try value(.dictionaryMember("d", of: "example-dict")) == "?1")
        #expect(try value(.dictionaryMember("b", of: "example-dict")) == "2;x=1;y=2")
        #expect(try value(.dictionaryMember("c", of: "example-dict")) == "(a b c)")
        #expect(try value(.dictionaryMember("sha-512", of: "content-digest")) == ":WZDPaVn/7XgHaAy8pmojAkGWoRx2UFChF41A2svX+TaPm+AbwAgBWnrIiYllu7BNNyealdVLvRwEmTHWXvJwew==:")

        func code(_ component: ComponentIdentifier, kinds: [String: StructuredFieldKind] = kinds) -> SigningError.Code? {
            do {
                _ = try SignatureBase.value(of: component, in: .request(head), structuredFields: kinds)
                return nil
            } catch {
                return error.code
            }
        }
        #expect(code(.header("example-dict", structured: true), kinds: [:]) == .invalidComponent)   // type unknown
        #expect(code(.dictionaryMember("z", of: "example-dict")) == .componentNotFound)
        #expect(code(ComponentIdentifier("example-dict", parameters: [("sf", .boolean(true)), ("bs", .boolean(true))])) == .invalidComponent)
        #expect(code(.dictionaryMember("a", of: "date")) == .invalidComponent)   // not a dictionary
    }

    @Test func aSignedStructuredComponentSurvivesReformatting() async throws {
        let secret = SymmetricKey(size: .bits256)
        let kinds = StructuredFieldKind.registered.merging(["example-dict": .dictionary]) { $1 }
        let signer = HTTPMessageSigner(keyID: "k", key: .hmacSHA256(secret),
                                       components: [.header("example-dict", structured: true), .dictionaryMember("a", of: "example-dict")],
                                       structuredFields: kinds)
        var request = try Self.request()
        request.head.headerFields[try .named("Example-Dict")] = "a=1, b=2;x=1;y=2, c=(a b c)"
        try await signer.sign(&request, at: MessageSignatureVectorTests.created)
        // A proxy re-formats the field; the strict serialization is unchanged, so it still verifies.
        request.head.headerFields[try .named("Example-Dict")] = "a=1,b=2;x=1;y=2,  c=(a    b c)"
        let verifier = HTTPMessageSignatureVerifier(structuredFields: kinds, now: { MessageSignatureVectorTests.created }) { _ in .hmacSHA256(secret) }
        try await verifier.verify(request)
        request.head.headerFields[try .named("Example-Dict")] = "a=2, b=2;x=1;y=2, c=(a b c)"
        await #expect(throws: SigningError.self) { try await verifier.verify(request) }
    }

    /// RFC 8941 §4.2.7: a byte sequence without its `=` padding is accepted.
    @Test func signaturesWithoutBase64PaddingVerify() async throws {
        let secret = SymmetricKey(data: try #require(Data(base64Encoded: MessageSignatureVectorTests.hmacSecret)))
        var request = try MessageSignatureVectorTests.request()
        request.head.headerFields[HTTPMessageSigner.signatureInputField] = #"sig-b25=("date" "@authority" "content-type");created=1618884473;keyid="test-shared-secret""#
        request.head.headerFields[HTTPMessageSigner.signatureField] = "sig-b25=:pxcQw6G3AjtMBQjwo8XzkZf/bws5LelbaMk5rGIGtE8:"
        let verifier = HTTPMessageSignatureVerifier(now: { MessageSignatureVectorTests.created }) { _ in .hmacSHA256(secret) }
        #expect(try await verifier.verify(request).label == "sig-b25")
    }
}
