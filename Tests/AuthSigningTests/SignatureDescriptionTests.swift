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

/// Signatures describe their inputs for debugging, never a session token, a covered secret or the
/// signature itself.
@Suite struct SignatureDescriptionTests {
    static let date = Date(timeIntervalSince1970: 1_440_938_160)

    static func rendered(_ value: Any) -> String {
        var dumped = ""
        dump(value, to: &dumped)
        return [String(describing: value), String(reflecting: value), dumped].joined(separator: "\n")
    }

    func signer(_ placement: SigV4Configuration.SessionTokenPlacement) -> SigV4Signer {
        SigV4Signer(
            credentials: AWSCredentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "secret-111", sessionToken: "session-222"),
            configuration: SigV4Configuration(region: "us-east-1", service: "service", sessionTokenPlacement: placement)
        )
    }

    @Test(arguments: [SigV4Configuration.SessionTokenPlacement.signed, .appendedAfterSigning])
    func sigV4SignaturesHideTheTokenAndTheSignature(_ placement: SigV4Configuration.SessionTokenPlacement) throws {
        let request = try AuthRequest(method: .get, url: URL(string: "https://example.amazonaws.com/?Action=List&api_key=key-333")!)
        for signature in [try signer(placement).signature(for: request, at: Self.date), try signer(placement).presign(request, at: Self.date, expires: 60)] {
            let text = Self.rendered(signature)
            for secret in ["secret-111", "session-222", "key-333", signature.signature] { #expect(!text.contains(secret)) }
            #expect(text.contains(signature.credentialScope) && text.contains("Action=List"))
            #expect(Mirror(reflecting: signature).descendant("stringToSign") as? String == signature.stringToSign)
        }
        let header = try signer(placement).signature(for: request, at: Self.date)
        #expect(Self.rendered(header).contains("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/\(header.credentialScope), SignedHeaders=\(header.signedHeaders), Signature=<redacted>"))
    }

    @Test func aMessageSignatureHidesCoveredSecretsAndItsBytes() throws {
        let signer = HTTPMessageSigner(
            keyID: "client-1", key: .hmacSHA256(SymmetricKey(data: Data("key-444".utf8))),
            components: [.method, .header("authorization"), .header("accept"), .queryParam("api_key"), .targetURI], nonce: nil
        )
        var request = try AuthRequest(method: .get, url: URL(string: "https://api.example.com/items?api_key=q-555&page=1")!)
        request.head.headerFields[.authorization] = "Bearer t-666"
        request.head.headerFields[.accept] = "application/json"
        let signature = try signer.signature(for: request, at: Self.date)
        let text = Self.rendered(signature)
        for secret in ["q-555", "t-666", signature.signature.base64EncodedString()] { #expect(!text.contains(secret)) }
        #expect(text.contains(#"keyid="client-1""#))
        let base = try #require(Mirror(reflecting: signature).descendant("base") as? String)
        #expect(base.split(separator: "\n").dropLast() == [
            #""@method": GET"#, #""authorization": <redacted>"#, #""accept": application/json"#,
            #""@query-param";name="api_key": <redacted>"#, #""@target-uri": https://api.example.com/items?api_key=<redacted>&page=1"#,
        ])
    }

    /// The description redacted only the standard secret names: a covered field the request
    /// marked secret (`X-Service-Token`, not a standard name) showed its value in `dump`.
    @Test func aMessageSignatureHidesTheFieldsItsRequestMarksSecret() async throws {
        let key = SymmetricKey(data: Data("key-777".utf8))
        let signer = HTTPMessageSigner(
            keyID: "client-1", key: .hmacSHA256(key), components: [.method, .header("x-service-token"), .header("x-tenant")], nonce: nil
        )
        var request = try AuthRequest(method: .get, url: URL(string: "https://api.example.com/items")!)
        request.head.headerFields[try #require(HTTPField.Name("X-Service-Token"))] = "st-888"
        request.head.headerFields[try #require(HTTPField.Name("X-Tenant"))] = "tenant-999"
        request.markSecret(header: "X-Service-Token")

        let made = try signer.signature(for: request, at: Self.date)
        try await signer.sign(&request, at: Self.date)
        let verifier = HTTPMessageSignatureVerifier(now: { Self.date }) { _ in .hmacSHA256(key) }
        let verified = try await verifier.verify(request)
        for signature in [made, verified] {
            let text = Self.rendered(signature)
            #expect(!text.contains("st-888"), "\(text)")
            #expect(text.contains("tenant-999"))
            let base = try #require(Mirror(reflecting: signature).descendant("base") as? String)
            #expect(base.split(separator: "\n").dropLast() == [#""@method": GET"#, #""x-service-token": <redacted>"#, #""x-tenant": tenant-999"#])
        }
    }
}
