// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
import Crypto
import Foundation

/// Proof Key for Code Exchange (RFC 7636) with the S256 method: a random verifier kept by the
/// client and its SHA-256 challenge sent with the authorization request.
///
/// ```swift
/// let pkce = PKCE()
/// // authorize?...&code_challenge=\(pkce.challenge)&code_challenge_method=S256
/// // token: code_verifier=\(pkce.verifier.reveal)
/// ```
public struct PKCE: Sendable, Equatable, Codable {
    /// The verifier (43 to 128 characters of `[A-Za-z0-9-._~]`); a secret until the code is
    /// exchanged.
    public let verifier: Secret
    /// `BASE64URL(SHA256(verifier))`, without padding.
    public var challenge: String { Self.challenge(for: verifier.reveal) }
    /// `S256`: the only method AuthKit sends (RFC 9700 §2.1.1 forbids `plain` where S256 works).
    public var method: String { "S256" }

    /// A fresh verifier: 32 random bytes, base64url-encoded (43 characters, RFC 7636 §4.1).
    public init() {
        verifier = Secret(Self.randomToken())
    }

    /// A given verifier.
    /// - Throws: `AuthError` `.invalidRequest` when it is not 43 to 128 unreserved characters.
    public init(verifier: String) throws {
        let unreserved = verifier.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x2D || byte == 0x2E || byte == 0x5F || byte == 0x7E
        }
        guard (43...128).contains(verifier.utf8.count), unreserved else {
            throw AuthError.invalidRequest("a PKCE code verifier is 43 to 128 characters of A-Z, a-z, 0-9, '-', '.', '_' and '~' (RFC 7636 §4.1)")
        }
        self.verifier = Secret(verifier)
    }

    /// The S256 challenge of `verifier`.
    public static func challenge(for verifier: String) -> String {
        Base64URL.encode(SHA256.hash(data: Data(verifier.utf8)))
    }

    /// `count` bytes from the system's secure generator, base64url-encoded: a verifier, a
    /// `state` or a `nonce`.
    static func randomToken(_ count: Int = 32) -> String {
        var generator = SystemRandomNumberGenerator()
        return Base64URL.encode((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }
}
