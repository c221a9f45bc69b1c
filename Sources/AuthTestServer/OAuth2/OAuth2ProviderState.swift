// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Crypto
import Foundation
import JWTKit
import Synchronization

/// What the test server's OAuth 2.0 provider remembers: codes, tokens, device authorizations, its
/// signing keys, and the user's answers that a test gives in place of a browser.
public final class OAuth2ProviderState: Sendable {
    struct Code {
        let clientID, redirectURI, challenge, scope, user: String
        let nonce: String?
        let expires: Date
    }

    struct Grant {
        let clientID, subject, scope: String
        var expires: Date
        var revoked = false
        /// The thumbprint of the key a DPoP-bound token is bound to.
        var jkt: String? = nil
        var issued = Date()
    }

    struct Device {
        let clientID, userCode, scope: String
        let expires: Date
        var lastPoll: Date?
        var decision: Bool?
    }

    struct Storage {
        var codes: [String: Code] = [:]
        var access: [String: Grant] = [:]
        var refresh: [String: Grant] = [:]
        var devices: [String: Device] = [:]
        var keyGeneration = 1
    }

    let storage = Mutex(Storage())
    let dpopState = Mutex(DPoPState())
    /// The current signing key and the one before it (both published while a rotation settles).
    let keys = Mutex<[(kid: String, key: P256.Signing.PrivateKey)]>([("authkit-test-1", P256.Signing.PrivateKey())])
    /// Seconds between device polls that the provider asks for.
    public let deviceInterval: Int

    /// How the provider departs from the RFCs (``OAuth2ProviderQuirks``).
    public let quirks: OAuth2ProviderQuirks

    /// Creates an empty state.
    /// - Parameters:
    ///   - deviceInterval: Seconds between device polls that the provider asks for.
    ///   - quirks: How the provider departs from the RFCs; none by default.
    public init(deviceInterval: Int = 1, quirks: OAuth2ProviderQuirks = OAuth2ProviderQuirks()) {
        self.deviceInterval = deviceInterval
        self.quirks = quirks
    }

    /// What the refresh grant answers besides tokens: nothing (the default), or an ID token
    /// (OpenID Connect Core §12.2) for the grant's user, or for `subject` to play a provider that
    /// names another user, expired an hour ago when `expired`.
    let refreshIDToken = Mutex<(answers: Bool, subject: String?, expired: Bool)>((false, nil, false))

    /// Makes the refresh grant answer with an ID token (for the grant's user, or for `subject`
    /// when given; one that expired an hour ago when `expired`), or with none again
    /// (`answers: false`).
    public func answerRefreshesWithIDToken(_ answers: Bool = true, subject: String? = nil, expired: Bool = false) {
        refreshIDToken.withLock { $0 = (answers, subject, expired) }
    }

    /// The user's answer to a device authorization, given on "another device".
    /// - Returns: Whether a pending authorization has that user code.
    @discardableResult
    public func decideDevice(userCode: String, approve: Bool) -> Bool {
        storage.withLock { storage in
            guard let code = storage.devices.first(where: { $0.value.userCode == userCode })?.key else { return false }
            storage.devices[code]?.decision = approve
            return true
        }
    }

    /// Publishes a new signing key (the previous one stays published) and signs with it from now on.
    public func rotateSigningKey() {
        keys.withLock { keys in
            let generation = storage.withLock { storage in storage.keyGeneration += 1; return storage.keyGeneration }
            keys = [("authkit-test-\(generation)", P256.Signing.PrivateKey()), keys[0]]
        }
    }

    /// The JWKS of the published keys.
    func jwks() -> String {
        let entries = keys.withLock { $0 }.map { entry in
            let x963 = entry.key.publicKey.x963Representation
            return #"{"kty":"EC","crv":"P-256","x":"\#(Base64URL.encode(x963[1..<33]))","y":"\#(Base64URL.encode(x963[33..<65]))","kid":"\#(entry.kid)","alg":"ES256","use":"sig"}"#
        }
        return #"{"keys":[\#(entries.joined(separator: ","))]}"#
    }

    /// An ES256 ID token signed with the current key.
    func idToken(issuer: String, subject: String, audience: String, nonce: String?, now: Date) async throws -> String {
        let (kid, key) = keys.withLock { $0[0] }
        let collection = JWTKeyCollection()
        await collection.add(ecdsa: try ES256PrivateKey(backing: key), kid: JWKIdentifier(string: kid))
        let claims = IDTokenPayload(iss: issuer, sub: subject, aud: audience, exp: Int(now.timeIntervalSince1970) + 3_600, iat: Int(now.timeIntervalSince1970), nonce: nonce)
        return try await collection.sign(claims, kid: JWKIdentifier(string: kid))
    }
}

/// The claims of the provider's ID tokens.
struct IDTokenPayload: JWTPayload {
    let iss, sub, aud: String
    let exp, iat: Int
    let nonce: String?

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
