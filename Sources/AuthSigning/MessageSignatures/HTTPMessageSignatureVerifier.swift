// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
public import Foundation
import HTTPTypes

/// Verifies RFC 9421 signatures on requests (and responses): parses `Signature-Input` and
/// `Signature`, looks the key up by `keyid`, checks the policy, the times, the signature, and the
/// body against `Content-Digest` when that field is covered.
///
/// ```swift
/// let verifier = HTTPMessageSignatureVerifier(policy: .init(requiredComponents: [.method, .path])) { keyID in
///     keys[keyID]
/// }
/// let verified = try await verifier.verify(request)   // throws SigningError
/// ```
public struct HTTPMessageSignatureVerifier: Sendable {
    /// What is demanded of a signature.
    public let policy: MessageVerificationPolicy
    /// Replay memory for the `nonce` parameter; `nil` does not check nonces. With one, a
    /// signature with a nonce needs `created` (the nonce is remembered from it), and one created
    /// longer ago than the cache's ``NonceCache/retention`` is refused as a replay.
    public let nonceCache: NonceCache?
    /// The structured fields a `;sf` or `;key` component may name, by type.
    public let structuredFields: [String: StructuredFieldKind]
    private let now: @Sendable () -> Date
    private let key: @Sendable (String) async throws -> MessageVerificationKey?

    /// Creates a verifier.
    /// - Parameters:
    ///   - policy: Requirements beyond a valid signature.
    ///   - nonceCache: Refuses reused nonces when given (see ``nonceCache``).
    ///   - structuredFields: The structured fields `;sf` and `;key` components may name; default
    ///     the fields registered as structured (``StructuredFieldKind/registered``).
    ///   - now: The verifier's clock.
    ///   - key: Looks up the verification key for a `keyid`; `nil` when unknown.
    public init(
        policy: MessageVerificationPolicy = .init(), nonceCache: NonceCache? = nil,
        structuredFields: [String: StructuredFieldKind] = StructuredFieldKind.registered,
        now: @escaping @Sendable () -> Date = { Date() },
        key: @escaping @Sendable (String) async throws -> MessageVerificationKey?
    ) {
        self.policy = policy
        self.nonceCache = nonceCache
        self.structuredFields = structuredFields
        self.now = now
        self.key = key
    }

    /// Verifies the signature on `request`.
    /// - Returns: The verified signature (label, components, parameters, base); its description
    ///   redacts the covered values of the names `request` marks secret too
    ///   (``/AuthCore/RequestOptions/secretFields``).
    /// - Throws: ``SigningError`` saying which check failed.
    @discardableResult
    public func verify(_ request: AuthRequest) async throws -> MessageSignature {
        try await verify(.request(request.head), fields: request.head.headerFields, body: request.body, secretFields: request.options.secretFields)
    }

    /// Verifies the signature on `response`, with the request it answers for `;req` components.
    /// - Returns: The verified signature; its description redacts the covered values of the
    ///   names `request` marks secret too.
    /// - Throws: ``SigningError`` saying which check failed.
    @discardableResult
    public func verify(_ response: AuthResponse, for request: AuthRequest?) async throws -> MessageSignature {
        try await verify(
            .response(response.head, request: request?.head), fields: response.head.headerFields, body: response.body,
            secretFields: request?.options.secretFields ?? SecretFieldNames()
        )
    }

    private func verify(_ message: SignatureBase.Message, fields: HTTPFields, body: Data, secretFields: SecretFieldNames) async throws -> MessageSignature {
        let input = try SignatureHeaders.parse(fields, label: policy.label)
        let current = now()
        guard let keyID = input.signature.keyID, !keyID.isEmpty else {
            throw SigningError(code: .invalidParameter, message: "signature \(input.label) has no string keyid parameter")
        }
        for required in policy.requiredComponents where !input.signature.components.contains(required) {
            throw SigningError(code: .requiredComponentNotCovered, message: "signature \(input.label) does not cover \(required)")
        }
        try checkTimes(input.signature.parameters, label: input.label, now: current)
        if let requiredTag = policy.requiredTag, input.signature.parameters["tag"] != .string(requiredTag) {
            throw SigningError(code: .tagMismatch, message: "signature \(input.label) does not carry the required tag")
        }
        guard let verificationKey = try await key(keyID) else {
            throw SigningError(code: .unknownKey, message: "no key is known for the keyid of signature \(input.label)")
        }
        if let alg = input.signature.parameters["alg"], alg != .string(verificationKey.algorithm.rawValue) {
            throw SigningError(code: .algorithmMismatch, message: "signature \(input.label) names an alg that is not the key's \(verificationKey.algorithm.rawValue)")
        }
        let base = try SignatureBase.make(
            for: message, covering: input.signature.components, parameters: input.signature.parameters, structuredFields: structuredFields
        )
        guard verificationKey.isValid(input.signature.signature, for: Data(base.utf8)) else {
            throw SigningError(code: .badSignature, message: "signature \(input.label) does not verify")
        }
        if input.signature.components.contains(where: { $0.name == "content-digest" }) {
            guard let digest = fields[ContentDigest.fieldName] else {
                throw SigningError(code: .missingContentDigest, message: "content-digest is covered but absent")
            }
            try ContentDigest.verify(digest, body: body)
        }
        if let nonceCache, case .string(let nonce)? = input.signature.parameters["nonce"] {
            // Remembered from its `created` time: without one, a replay once the cache forgot the
            // nonce would count as new.
            guard case .integer(let created)? = input.signature.parameters["created"] else {
                throw SigningError(code: .missingCreated, message: "signature \(input.label) has a nonce but no created parameter to check it against")
            }
            let timestamp = Date(timeIntervalSince1970: TimeInterval(created))
            guard nonceCache.insert(nonce: nonce, keyID: keyID, timestamp: timestamp, now: current) == .accepted else {
                throw SigningError(code: .replayedNonce, message: "the nonce of signature \(input.label) was already used, or is older than the nonce cache remembers (\(Int(nonceCache.retention)) s)")
            }
        }
        return MessageSignature(
            label: input.label, components: input.signature.components, parameters: input.signature.parameters,
            base: base, signature: input.signature.signature, secretFields: secretFields
        )
    }

    private func checkTimes(_ parameters: StructuredField.Parameters, label: String, now: Date) throws(SigningError) {
        func integer(_ key: String) throws(SigningError) -> Int64? {
            switch parameters[key] {
            case nil: return nil
            case .integer(let value)?: return value
            default: throw SigningError(code: .invalidParameter, message: "the \(key) parameter of signature \(label) is not an integer")
            }
        }
        let seconds = now.timeIntervalSince1970
        if let created = try integer("created") {
            guard TimeInterval(created) <= seconds + policy.tolerance else {
                throw SigningError(code: .createdInFuture, message: "signature \(label) was created after the verifier's clock")
            }
            if let maximumAge = policy.maximumAge, seconds - TimeInterval(created) > maximumAge + policy.tolerance {
                throw SigningError(code: .expired, message: "signature \(label) is older than \(Int(maximumAge)) s")
            }
        } else if policy.requiresCreated {
            throw SigningError(code: .missingCreated, message: "signature \(label) has no created parameter")
        }
        if let expires = try integer("expires"), seconds > TimeInterval(expires) + policy.tolerance {
            throw SigningError(code: .expired, message: "signature \(label) has expired")
        }
    }
}
