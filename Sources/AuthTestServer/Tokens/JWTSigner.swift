// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
public import Crypto
public import Foundation

/// Signs and verifies HS256 JSON Web Tokens (RFC 7519) with the server's key.
///
/// Verification here checks structure, algorithm and signature only; expiry against the server
/// clock and family revocation are checked by ``ServerState/validateAccessToken(_:)``.
///
/// ```swift
/// let signer = JWTSigner.random()
/// let token = try signer.sign(AccessTokenClaims(subject: "u1", issuedAt: .now, lifetime: 300, family: "f1"))
/// let claims = try signer.verify(token)   // claims.sub == "u1"
/// ```
public struct JWTSigner: Sendable {
    private let key: SymmetricKey
    private static let header = #"{"alg":"HS256","typ":"JWT"}"#

    /// Creates a signer with a given key.
    /// - Parameter key: The HMAC-SHA256 key.
    public init(key: SymmetricKey) {
        self.key = key
    }

    /// Creates a signer with a fresh random 256-bit key.
    public static func random() -> JWTSigner {
        JWTSigner(key: SymmetricKey(size: .bits256))
    }

    /// Signs `claims` into a compact JWT.
    /// - Parameter claims: The access-token claims.
    /// - Throws: An encoding error if the claims cannot be encoded as JSON.
    public func sign(_ claims: AccessTokenClaims) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let payload = try encoder.encode(claims)
        let signingInput = Base64URL.encode(Data(Self.header.utf8)) + "." + Base64URL.encode(payload)
        let mac = HMAC<SHA256>.authenticationCode(for: Data(signingInput.utf8), using: key)
        return signingInput + "." + Base64URL.encode(Data(mac))
    }

    /// Verifies structure, algorithm and signature of a compact JWT and returns its raw payload.
    /// - Parameter token: A compact JWT (`header.payload.signature`).
    /// - Throws: ``AuthTestServerError`` (`malformedToken`, `unsupportedAlgorithm`, `badSignature`).
    public func verifiedPayload(of token: String) throws(AuthTestServerError) -> Data {
        let segments = token.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3,
              let headerData = Base64URL.decode(segments[0]),
              let payload = Base64URL.decode(segments[1]),
              let signature = Base64URL.decode(segments[2])
        else { throw AuthTestServerError(.malformedToken, "token is not three base64url segments") }
        guard let header = try? JSONSerialization.jsonObject(with: headerData) as? [String: Any] else {
            throw AuthTestServerError(.malformedToken, "token header is not a JSON object")
        }
        guard header["alg"] as? String == "HS256" else {
            throw AuthTestServerError(.unsupportedAlgorithm, "only HS256 tokens are accepted")
        }
        let signingInput = Data(token.utf8.prefix(segments[0].utf8.count + 1 + segments[1].utf8.count))
        guard HMAC<SHA256>.isValidAuthenticationCode(signature, authenticating: signingInput, using: key) else {
            throw AuthTestServerError(.badSignature, "token signature does not match the server key")
        }
        return payload
    }

    /// Verifies a token and decodes its ``AccessTokenClaims``.
    /// - Parameter token: A compact JWT.
    /// - Throws: ``AuthTestServerError``; `malformedToken` when the claims are missing or of the wrong type.
    public func verify(_ token: String) throws(AuthTestServerError) -> AccessTokenClaims {
        let payload = try verifiedPayload(of: token)
        do {
            return try JSONDecoder().decode(AccessTokenClaims.self, from: payload)
        } catch {
            throw AuthTestServerError(.malformedToken, "token claims are not valid access-token claims")
        }
    }
}

extension JWTSigner: CustomStringConvertible, CustomReflectable {
    /// Names the algorithm only; never the key.
    public var description: String { "JWTSigner(HS256)" }

    /// A mirror without the key, so `dump` shows no secret.
    public var customMirror: Mirror { Mirror(self, children: ["algorithm": "HS256"]) }
}
