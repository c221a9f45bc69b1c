// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthSigning
public import Crypto
import Foundation

/// The fixed keys the signed endpoints (`/signed/hmac/*`, `/signed/rfc9421/*`, `/signed/sigv4/*`)
/// accept, so tests and the demo can sign requests the server verifies.
///
/// These are public test values, never for production. The endpoints refuse every other key id,
/// and a request signed with the right key id but another secret fails as a bad signature.
///
/// ```swift
/// let signer = HMACRequestSigner(keyID: SignedTestKeys.hmacKeyID, key: SignedTestKeys.hmacSecret)
/// container.useRequestSigner(signer, allowedHosts: AllowedHosts(origin: server.baseURL))
/// let response = try await client.send(.get, server.baseURL.appending(path: "signed/hmac/items"))
/// ```
public enum SignedTestKeys {
    /// The key id `/signed/hmac/*` accepts (sent in `X-Key-Id`).
    public static let hmacKeyID = "authkit-test-hmac"
    /// The shared secret of ``hmacKeyID``.
    public static let hmacSecret = SymmetricKey(data: Data("authkit test server hmac secret (public test value)".utf8))

    /// The RFC 9421 `keyid` of the HMAC-SHA256 key `/signed/rfc9421/*` accepts.
    public static let messageHMACKeyID = "authkit-test-rfc9421-hmac"
    /// The shared secret of ``messageHMACKeyID``.
    public static let messageHMACSecret = SymmetricKey(data: Data("authkit test server rfc9421 secret (public test value)".utf8))

    /// The RFC 9421 `keyid` of the Ed25519 key `/signed/rfc9421/*` accepts.
    public static let ed25519KeyID = "authkit-test-ed25519"
    /// The Ed25519 private key of ``ed25519KeyID``; the server keeps only its public key.
    ///
    /// Made from a fixed 32-byte seed. A 32-byte seed is always accepted; the random fallback only
    /// keeps this free of a trap and would still be one key for the whole process.
    public static let ed25519PrivateKey: Curve25519.Signing.PrivateKey =
        (try? Curve25519.Signing.PrivateKey(rawRepresentation: Data((0..<32).map { UInt8(0xA0 &+ $0) })))
        ?? Curve25519.Signing.PrivateKey()

    /// The SigV4 credentials `/signed/sigv4/*` accepts.
    public static let sigV4Credentials = AWSCredentials(
        accessKeyID: "AKIDAUTHKITTEST0001",
        secretAccessKey: "authkit/test/server/sigv4/secret/public/value"
    )
    /// The region and service `/signed/sigv4/*` expects in the credential scope.
    public static let sigV4Configuration = SigV4Configuration(region: "us-east-1", service: "authkit")

    /// The RFC 9421 verification key for a `keyid`, or `nil` when the server does not know it.
    /// - Parameter keyID: The signature's `keyid` parameter.
    public static func messageVerificationKey(for keyID: String) -> MessageVerificationKey? {
        switch keyID {
        case messageHMACKeyID: .hmacSHA256(messageHMACSecret)
        case ed25519KeyID: .ed25519(ed25519PrivateKey.publicKey)
        default: nil
        }
    }
}
