// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
public import Crypto
public import Foundation
import HTTPTypes

/// Checks requests signed by ``HMACRequestSigner``: fields present, timestamp within tolerance,
/// known key, body digest, signature (constant-time compare) and nonce not replayed.
///
/// The nonce is recorded only after the signature checks out, so unsigned traffic cannot fill the
/// cache.
///
/// ```swift
/// let verifier = HMACRequestVerifier { keyID in keyID == "client-1" ? key : nil }
/// let keyID = try await verifier.verify(request)   // throws SigningError
/// ```
public struct HMACRequestVerifier: Sendable {
    /// The header field names; must match the signer's.
    public let configuration: HMACSigningConfiguration
    /// How far, in seconds, a timestamp may be from the verifier's clock, either way.
    public let tolerance: TimeInterval
    /// The replay memory.
    public let nonceCache: NonceCache
    private let now: @Sendable () -> Date
    private let key: @Sendable (String) async throws -> SymmetricKey?

    /// Creates a verifier.
    /// - Parameters:
    ///   - configuration: Header field names.
    ///   - tolerance: Allowed clock difference in seconds (default 300).
    ///   - nonceCache: The replay memory; share one between verifiers of the same keys.
    ///   - now: The verifier's clock.
    ///   - key: Looks up the shared secret for a key id; `nil` when unknown.
    public init(
        configuration: HMACSigningConfiguration = .init(),
        tolerance: TimeInterval = 300,
        nonceCache: NonceCache = NonceCache(),
        now: @escaping @Sendable () -> Date = { Date() },
        key: @escaping @Sendable (String) async throws -> SymmetricKey?
    ) {
        self.configuration = configuration
        self.tolerance = tolerance
        self.nonceCache = nonceCache
        self.now = now
        self.key = key
    }

    /// Verifies `request` and returns the key id it was signed with.
    /// - Throws: ``SigningError`` saying which check failed.
    @discardableResult
    public func verify(_ request: AuthRequest) async throws -> String {
        let fields = request.head.headerFields
        func required(_ name: HTTPField.Name) throws -> String {
            guard let value = fields[name], !value.isEmpty else {
                throw SigningError(code: .missingHeader, message: "the \(name.rawName) field is missing")
            }
            return value
        }
        let timestampText = try required(configuration.timestampField)
        let nonce = try required(configuration.nonceField)
        let keyID = try required(configuration.keyIDField)
        let signatureText = try required(configuration.signatureField)

        guard timestampText.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
              let seconds = Int64(timestampText) else {
            throw SigningError(code: .badTimestamp, message: "the \(configuration.timestampField.rawName) field is not a Unix time in seconds")
        }
        let timestamp = Date(timeIntervalSince1970: TimeInterval(seconds))
        let current = now()
        let skew = timestamp.timeIntervalSince(current)
        guard abs(skew) <= tolerance else {
            // `skew` comes from the request: shown as a whole number only when one can hold it.
            let shown = abs(skew) < 1e15 ? "\(Int(skew.rounded()))" : "more than 10^15"
            throw SigningError(code: .expired, message: "the timestamp is \(shown) s from the verifier's clock; at most \(Int(tolerance)) s is allowed")
        }
        guard let secret = try await key(keyID) else {
            throw SigningError(code: .unknownKey, message: "no key is known for the key id in \(configuration.keyIDField.rawName)")
        }
        if let digestField = configuration.bodyDigestField, let sent = fields[digestField],
           sent.lowercased() != HMACSigningConfiguration.bodyDigest(request.body) {
            throw SigningError(code: .bodyDigestMismatch, message: "the body does not match the \(digestField.rawName) field")
        }
        guard let signature = Data(base64Encoded: signatureText) else {
            throw SigningError(code: .badSignature, message: "the \(configuration.signatureField.rawName) field is not base64")
        }
        let text = configuration.stringToSign(for: request, timestamp: timestampText, nonce: nonce)
        guard HMAC<SHA256>.isValidAuthenticationCode(signature, authenticating: Data(text.utf8), using: secret) else {
            throw SigningError(code: .badSignature, message: "the signature does not match the request")
        }
        guard nonceCache.insert(nonce: nonce, keyID: keyID, timestamp: timestamp, now: current) == .accepted else {
            throw SigningError(code: .replayedNonce, message: "the nonce was already used with this key, or is older than the nonce cache remembers (\(Int(nonceCache.retention)) s)")
        }
        return keyID
    }
}
