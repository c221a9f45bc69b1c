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

extension SecretExhibit {
    /// AuthSigning: AWS credentials, SigV4 signers, signatures and presigned requests, the HMAC
    /// scheme's signer and signed request, RFC 9421 keys, signers and signatures, verifier errors.
    ///
    /// Signatures count as secrets here: a presigned URL's signature (and a signed request's
    /// signature header) lets whoever holds it replay the request until it expires.
    static func signing() async throws -> [SecretExhibit] {
        var list = try sigV4()
        list += try await hmac()
        list += try await messageSignatures()
        return list
    }

    static func sigV4() throws -> [SecretExhibit] {
        let m = marker
        let credentials = AWSCredentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "\(m)-aws-secret", sessionToken: "\(m)-aws-session")
        var request = try AuthRequest(method: .post, url: URL(string: "https://example.amazonaws.com/bucket/key?Action=List&api_key=\(m)-query")!)
        request.body = Data("payload \(m)".utf8)
        var list = [SecretExhibit(credentials, [m])]
        for placement in [SigV4Configuration.SessionTokenPlacement.signed, .appendedAfterSigning] {
            let configuration = SigV4Configuration(region: "us-east-1", service: "service", sessionTokenPlacement: placement)
            let signer = SigV4Signer(credentials: credentials, configuration: configuration)
            let header = try signer.signature(for: request, at: date)
            let presigned = try signer.presign(request, at: date, expires: 300)
            list += [
                SecretExhibit(signer, [m], name: "SigV4Signer (\(placement))"),
                SecretExhibit(header, [m, header.signature], name: "SigV4Signature (header, token \(placement))"),
                SecretExhibit(header.request, [m, header.signature], name: "AuthRequest (SigV4 header-signed, token \(placement))"),
                SecretExhibit(presigned, [m, presigned.signature], name: "SigV4Signature (presigned, token \(placement))"),
                SecretExhibit(presigned.request, [m, presigned.signature], name: "AuthRequest (SigV4 presigned, token \(placement))"),
            ]
        }
        return list
    }

    static func hmac() async throws -> [SecretExhibit] {
        let m = marker
        let keyData = keyBytes("hmac")
        let signer = HMACRequestSigner(keyID: "client-1", key: SymmetricKey(data: keyData), nonce: { "nonce-1" })
        var request = try AuthRequest(method: .post, url: URL(string: "https://api.example.com/orders?page=1")!)
        try await signer.sign(&request, at: date)
        let signature = try #require(request.head.headerFields[HTTPField.Name("X-Signature")!])
        var list = [
            SecretExhibit(signer, [m], raw: [Array(keyData)]),
            SecretExhibit(SigningMiddleware(signer: signer, allowedHosts: AllowedHosts(["api.example.com"])), [m], raw: [Array(keyData)]),
            SecretExhibit(request, [m, signature], name: "AuthRequest (HMAC-signed)"),
        ]
        let verifier = HMACRequestVerifier(now: { date }) { _ in SymmetricKey(data: Data("another key".utf8)) }
        var forged = request
        forged.head.headerFields[HTTPField.Name("X-Signature")!] = "\(m)-forged"
        do {
            try await verifier.verify(forged)
        } catch {
            list.append(SecretExhibit(error, [m], name: "SigningError (HMAC, forged signature)"))
        }
        return list
    }

    static func messageSignatures() async throws -> [SecretExhibit] {
        let m = marker
        let keyData = keyBytes("rfc9421")
        let hmacKey = MessageSigningKey.hmacSHA256(SymmetricKey(data: keyData))
        let edKey = Curve25519.Signing.PrivateKey()
        let signer = HTTPMessageSigner(
            keyID: "client-1", key: hmacKey,
            components: [.method, .authority, .header("authorization"), .queryParam("api_key"), .query, .targetURI, .requestTarget]
        )
        var request = try AuthRequest(method: .get, url: URL(string: "https://api.example.com/items?api_key=\(m)-query&page=1")!)
        request.head.headerFields[.authorization] = "Bearer \(m)-bearer"
        let signature = try signer.signature(for: request, at: date)
        var signed = request
        try await signer.sign(&signed, at: date)
        let encoded = signature.signature.base64EncodedString()
        var list = [
            SecretExhibit(hmacKey, [m], raw: [Array(keyData)]),
            SecretExhibit(hmacKey.verificationKey, [m], raw: [Array(keyData)], name: "MessageVerificationKey"),
            SecretExhibit(MessageSigningKey.ed25519(edKey), [m], raw: [Array(edKey.rawRepresentation)], name: "MessageSigningKey (Ed25519)"),
            SecretExhibit(signer, [m], raw: [Array(keyData)]),
            SecretExhibit(signature, [m, encoded], raw: [Array(signature.signature)]),
            SecretExhibit(signed, [m, encoded], name: "AuthRequest (RFC 9421-signed)"),
        ]
        var forged = signed
        forged.head.headerFields[HTTPField.Name("Signature")!] = "sig1=:\(m)-not-base64:"
        do {
            try await HTTPMessageSignatureVerifier(now: { date }) { _ in hmacKey.verificationKey }.verify(forged)
        } catch {
            list.append(SecretExhibit(error, [m], name: "error of a malformed Signature field"))
        }
        return list
    }
}
