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

/// Malformed `Signature-Input` / `Signature` fields give typed errors that never show a key.
@Suite struct MalformedSignatureHeaderTests {
    static let secretBase64 = MessageSignatureVectorTests.hmacSecret
    static let validInput = #"sig1=("@method" "@authority");created=1618884473;keyid="test-shared-secret""#
    static let validSignature = "sig1=:pxcQw6G3AjtMBQjwo8XzkZf/bws5LelbaMk5rGIGtE8=:"

    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var input: String?
        var signature: String?
        var label: String? = nil
        var code: SigningError.Code
        var description: String { name }
    }

    static let cases: [Case] = [
        Case(name: "no Signature-Input", input: nil, signature: validSignature, code: .missingSignatureInput),
        Case(name: "unclosed inner list", input: #"sig1=("@method""#, signature: validSignature, code: .malformedSignatureInput),
        Case(name: "item instead of inner list", input: #"sig1="@method";created=1"#, signature: validSignature, code: .malformedSignatureInput),
        Case(name: "token component", input: "sig1=(@method);created=1", signature: validSignature, code: .malformedSignatureInput),
        Case(name: "upper-case label", input: #"Sig1=("@method");created=1"#, signature: validSignature, code: .malformedSignatureInput),
        Case(name: "trailing comma", input: validInput + ",", signature: validSignature, code: .malformedSignatureInput),
        Case(name: "integer component", input: #"sig1=("@method" 12);created=1618884473;keyid="k""#, signature: validSignature, code: .malformedSignatureInput),
        Case(name: "bad string escape", input: #"sig1=("@met\hod");created=1"#, signature: validSignature, code: .malformedSignatureInput),
        Case(name: "integer too long", input: #"sig1=("@method");created=1618884473000000"#, signature: validSignature, code: .malformedSignatureInput),
        Case(name: "no Signature", input: validInput, signature: nil, code: .missingSignature),
        Case(name: "signature not base64", input: validInput, signature: "sig1=:not base64!:", code: .malformedSignature),
        Case(name: "signature unterminated", input: validInput, signature: "sig1=:pxcQw6G3", code: .malformedSignature),
        Case(name: "signature is an inner list", input: validInput, signature: #"sig1=("x")"#, code: .malformedSignature),
        Case(name: "signature for another label", input: validInput, signature: "sig2=:pxcQw6G3AjtMBQjwo8XzkZf/bws5LelbaMk5rGIGtE8=:", code: .missingSignature),
        Case(name: "label not present", input: validInput, signature: validSignature, label: "other", code: .labelNotFound),
        Case(name: "created is a string", input: #"sig1=("@method");created="1618884473";keyid="test-shared-secret""#, signature: validSignature, code: .invalidParameter),
        Case(name: "no keyid", input: #"sig1=("@method");created=1618884473"#, signature: validSignature, code: .invalidParameter),
        Case(name: "duplicate component", input: #"sig1=("@method" "@method");created=1618884473;keyid="test-shared-secret""#, signature: validSignature, code: .invalidComponent),
        Case(name: "upper-case component", input: #"sig1=("Content-Type");created=1618884473;keyid="test-shared-secret""#, signature: validSignature, code: .invalidComponent),
        Case(name: "unknown derived component", input: #"sig1=("@unknown");created=1618884473;keyid="test-shared-secret""#, signature: validSignature, code: .unsupportedComponent),
        Case(name: "sf on a field not known to be structured", input: #"sig1=("content-type";sf);created=1618884473;keyid="test-shared-secret""#, signature: validSignature, code: .invalidComponent),
        Case(name: "tr parameter", input: #"sig1=("content-type";tr);created=1618884473;keyid="test-shared-secret""#, signature: validSignature, code: .unsupportedComponent),
        Case(name: "unknown key id", input: #"sig1=("@method");created=1618884473;keyid="nobody""#, signature: validSignature, code: .unknownKey),
        Case(name: "missing created", input: #"sig1=("@method");keyid="test-shared-secret""#, signature: validSignature, code: .missingCreated),
        Case(name: "created in the future", input: #"sig1=("@method");created=1618899999;keyid="test-shared-secret""#, signature: validSignature, code: .createdInFuture),
        Case(name: "bad signature", input: validInput, signature: validSignature, code: .badSignature),
    ]

    @Test(arguments: MalformedSignatureHeaderTests.cases)
    func typedError(_ testCase: Case) async throws {
        var request = try MessageSignatureVectorTests.request()
        if let input = testCase.input { request.head.headerFields[HTTPMessageSigner.signatureInputField] = input }
        if let signature = testCase.signature { request.head.headerFields[HTTPMessageSigner.signatureField] = signature }
        let secret = SymmetricKey(data: try #require(Data(base64Encoded: Self.secretBase64)))
        let now = MessageSignatureVectorTests.created.addingTimeInterval(5)
        let verifier = HTTPMessageSignatureVerifier(policy: .init(label: testCase.label), now: { now }) { id in
            id == "test-shared-secret" ? .hmacSHA256(secret) : nil
        }
        let error = await caught(SigningError.self) { try await verifier.verify(request) }
        #expect(error?.code == testCase.code)
        let text = String(describing: error) + String(reflecting: error)
        #expect(!text.contains(Self.secretBase64))
        #expect(!text.contains("pxcQw6G3AjtMBQjwo8XzkZf"))
        #expect(!text.contains("uzvJfB4u3N0J"))
    }

    @Test func requiredComponentMustBeCovered() async throws {
        let secret = SymmetricKey(data: try #require(Data(base64Encoded: Self.secretBase64)))
        let signer = HTTPMessageSigner(keyID: "k", key: .hmacSHA256(secret), components: [.method])
        var request = try MessageSignatureVectorTests.request()
        try await signer.sign(&request, at: MessageSignatureVectorTests.created)
        let verifier = HTTPMessageSignatureVerifier(
            policy: .init(requiredComponents: [.method, .targetURI]), now: { MessageSignatureVectorTests.created }
        ) { _ in .hmacSHA256(secret) }
        let error = await caught(SigningError.self) { try await verifier.verify(request) }
        #expect(error?.code == .requiredComponentNotCovered)
    }

    /// `@target-uri` is signed with the authority as the transport sends it (lower case, no
    /// default port), which is what the verifier rebuilds it from; it was signed as written.
    @Test(arguments: ["https://API.example.com/items?a=1", "https://api.example.com:443/items?a=1"])
    func theTargetURIIsSignedAsSent(url: String) async throws {
        let secret = SymmetricKey(data: Data("target-uri-test-key-of-32-bytes!".utf8))
        let signer = HTTPMessageSigner(keyID: "k", key: .hmacSHA256(secret), components: [.method, .targetURI])
        var request = try AuthRequest(method: .get, url: try #require(URL(string: url)))
        try await signer.sign(&request, at: MessageSignatureVectorTests.created)
        var received = request
        received.head.authority = try #require(Origin(request.head)).hostField
        #expect(received.head.authority == "api.example.com")
        let verifier = HTTPMessageSignatureVerifier(now: { MessageSignatureVectorTests.created }) { _ in .hmacSHA256(secret) }
        try await verifier.verify(received)
    }

    /// A nonce is remembered from the signature's `created` time. Under a policy that does not
    /// require `created`, a signature without one was stamped with the verifier's clock, so a
    /// replay once the cache forgot the nonce counted as new; a nonce without `created` is now
    /// refused.
    @Test func aNonceWithoutCreatedIsRefused() async throws {
        let secret = SymmetricKey(data: try #require(Data(base64Encoded: Self.secretBase64)))
        let params = #"("@method");nonce="n-1";keyid="k""#
        let base = "\"@method\": GET\n\"@signature-params\": \(params)"
        let mac = Data(HMAC<SHA256>.authenticationCode(for: Data(base.utf8), using: secret)).base64EncodedString()
        var request = try AuthRequest(method: .get, url: try #require(URL(string: "https://api.example.com/")))
        request.head.headerFields[try #require(HTTPField.Name("Signature-Input"))] = "sig1=" + params
        request.head.headerFields[try #require(HTTPField.Name("Signature"))] = "sig1=:\(mac):"
        let now = Date()
        let policy = MessageVerificationPolicy(requiresCreated: false)
        // Without a nonce cache, the same signature verifies: only the missing `created` is refused.
        try await HTTPMessageSignatureVerifier(policy: policy, now: { now }) { _ in .hmacSHA256(secret) }.verify(request)
        let verifier = HTTPMessageSignatureVerifier(policy: policy, nonceCache: NonceCache(), now: { now }) { _ in .hmacSHA256(secret) }
        await #expect { try await verifier.verify(request) } throws: { ($0 as? SigningError)?.code == .missingCreated }
    }

    @Test func signersAndKeysNeverPrintKeys() throws {
        let secret = SymmetricKey(data: Data("super-secret-hmac-key-material!!".utf8))
        let signer = HTTPMessageSigner(keyID: "kid", key: .hmacSHA256(secret), components: [.method])
        let hmac = HMACRequestSigner(keyID: "kid", key: secret)
        for value in [signer as Any, hmac, MessageSigningKey.hmacSHA256(secret), MessageVerificationKey.hmacSHA256(secret)] {
            var dumped = ""
            dump(value, to: &dumped)
            for text in [dumped, String(describing: value), String(reflecting: value)] {
                #expect(!text.contains("super-secret"))
                #expect(!text.contains("7375706572"))   // hex of "super"
            }
        }
    }

    @Test func structuredFieldsRoundTrip() throws {
        let text = #"sig-b26=("date" "@method" "@query-param";name="a\"b");created=1618884473;keyid="k";x=?0;d=1.5, b=:AAEC:, t=tok/en*x"#
        let parsed = try StructuredField.parseDictionary(text)
        #expect(parsed.serialized == text)
        #expect(parsed["b"] == .item(.init(.byteSequence(Data([0, 1, 2])))))
        #expect(throws: SigningError.self) { try StructuredField.parseDictionary("a=1;") }
        #expect(throws: SigningError.self) { try StructuredField.parseDictionary("a=?2") }
    }
}
