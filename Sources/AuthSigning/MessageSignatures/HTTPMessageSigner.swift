// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
public import Foundation
public import HTTPTypes

/// Signs requests with RFC 9421 HTTP Message Signatures, writing `Signature-Input` and
/// `Signature` (and `Content-Digest` when asked to).
///
/// Parameters are written in the order `created`, `expires`, `nonce`, `alg`, `keyid`, `tag`.
///
/// ```swift
/// let signer = HTTPMessageSigner(
///     label: "sig1", keyID: "client-ed25519", key: .ed25519(privateKey),
///     components: [.method, .targetURI, .header("content-digest")], contentDigest: [.sha256]
/// )
/// try await signer.sign(&request, at: Date())
/// ```
public struct HTTPMessageSigner: RequestSigner, CustomStringConvertible, CustomReflectable {
    /// `Signature-Input`.
    public static let signatureInputField = HTTPField.Name.literal("Signature-Input")
    /// `Signature`.
    public static let signatureField = HTTPField.Name.literal("Signature")

    /// The dictionary key of this signature in both fields.
    public let label: String
    /// The `keyid` parameter.
    public let keyID: String
    /// The covered components, in order.
    public let components: [ComponentIdentifier]
    /// Whether to send the `alg` parameter.
    public let includesAlgorithm: Bool
    /// Seconds after `created` for the `expires` parameter; `nil` sends none.
    public let validity: TimeInterval?
    /// The `tag` parameter, if any.
    public let tag: String?
    /// Digest algorithms for a `Content-Digest` field made before signing; empty makes none.
    public let contentDigest: [ContentDigest.Algorithm]
    /// The structured fields a `;sf` or `;key` component may name, by type.
    public let structuredFields: [String: StructuredFieldKind]
    private let key: MessageSigningKey
    private let nonce: (@Sendable () -> String)?
    /// The base's component lines and the inner list of covered components, worked out once.
    private let plan: SignatureBasePlan
    /// The parameters that follow `created`, `expires` and `nonce`: `alg`, `keyid`, `tag`.
    private let trailingParameters: StructuredField.Parameters
    /// Why the label, key id or tag cannot be sent, if they cannot.
    private let configurationProblem: SigningError?

    /// Creates a signer.
    /// - Parameters:
    ///   - label: The signature's label (an RFC 8941 key such as `sig1`).
    ///   - keyID: The `keyid` parameter.
    ///   - key: The signing key; it decides the algorithm.
    ///   - components: What the signature covers.
    ///   - includesAlgorithm: Whether to send `alg`.
    ///   - validity: Seconds until `expires` (0 to ``maximumValidity``), or `nil`.
    ///   - tag: The `tag` parameter, or `nil`.
    ///   - contentDigest: Algorithms for `Content-Digest`; add `.header("content-digest")` to
    ///     `components` to cover it.
    ///   - structuredFields: The structured fields `;sf` and `;key` components may name; default
    ///     the fields registered as structured (``StructuredFieldKind/registered``).
    ///   - nonce: Makes the `nonce` parameter; `nil` sends none. Default: 16 random bytes as hex.
    public init(
        label: String = "sig1", keyID: String, key: MessageSigningKey, components: [ComponentIdentifier],
        includesAlgorithm: Bool = false, validity: TimeInterval? = nil, tag: String? = nil,
        contentDigest: [ContentDigest.Algorithm] = [],
        structuredFields: [String: StructuredFieldKind] = StructuredFieldKind.registered,
        nonce: (@Sendable () -> String)? = { Encoding.randomHex() }
    ) {
        self.label = label
        self.keyID = keyID
        self.key = key
        self.components = components
        self.includesAlgorithm = includesAlgorithm
        self.validity = validity
        self.tag = tag
        self.contentDigest = contentDigest
        self.structuredFields = structuredFields
        self.nonce = nonce
        plan = SignatureBasePlan(components)
        var trailing = StructuredField.Parameters()
        if includesAlgorithm { trailing["alg"] = .string(key.algorithm.rawValue) }
        trailing["keyid"] = .string(keyID)
        if let tag { trailing["tag"] = .string(tag) }
        trailingParameters = trailing
        if !StructuredField.isValidKey(label) {
            configurationProblem = .invalidConfiguration("the signature label must be a lower-case structured field key")
        } else if keyID.isEmpty || !StructuredField.isValidString(keyID) || !(tag.map(StructuredField.isValidString) ?? true) {
            configurationProblem = .invalidConfiguration("the key id and tag must be non-empty printable ASCII")
        } else if let validity, !(validity.isFinite && validity >= 0 && validity <= Self.maximumValidity) {
            configurationProblem = .invalidConfiguration("the validity must be between 0 and \(Int(Self.maximumValidity)) seconds")
        } else {
            configurationProblem = nil
        }
    }

    /// The longest validity a signer accepts: ten years, in seconds.
    public static let maximumValidity: TimeInterval = 315_576_000

    /// `Signature-Input`, `Signature`, and `Content-Digest` when this signer makes it; fields other
    /// signers share (see ``removeSignature(from:)``).
    public var signatureFieldNames: [HTTPField.Name] {
        [Self.signatureInputField, Self.signatureField] + (contentDigest.isEmpty ? [] : [ContentDigest.fieldName])
    }

    /// Adds `Content-Digest` (when configured), then this signature to `Signature-Input` and
    /// `Signature`, keeping other labels already there.
    ///
    /// A `Content-Digest` already on the request that matches the body is kept, so that another
    /// signature covering it stays valid; this signer's algorithms are added to it only when no
    /// other signature covers it. One that does not match the body (a previous hop's) is
    /// replaced.
    /// - Throws: ``SigningError``: `.invalidConfiguration` for a bad label or key id, another
    ///   code when a covered component is missing or unsupported.
    public func sign(_ request: inout AuthRequest, at date: Date) async throws {
        if !contentDigest.isEmpty {
            request.head.headerFields[ContentDigest.fieldName] = contentDigestValue(for: request)
        }
        let (signature, signatureParams) = try make(for: request, at: date)
        let signatureText = ":" + signature.signature.base64EncodedString() + ":"
        if request.head.headerFields[Self.signatureInputField] == nil, request.head.headerFields[Self.signatureField] == nil {
            request.head.headerFields[Self.signatureInputField] = label + "=" + signatureParams
            request.head.headerFields[Self.signatureField] = label + "=" + signatureText
            return
        }
        for (name, entry) in [(Self.signatureInputField, signature.inputMember), (Self.signatureField, signature.signatureMember)] {
            let existing = request.head.headerFields[name].flatMap { try? StructuredField.parseDictionary($0) }
            var dictionary = existing ?? StructuredField.Dictionary()
            dictionary.entries.removeAll { $0.key == label }
            dictionary.entries.append((label, entry))
            request.head.headerFields[name] = dictionary.serialized
        }
    }

    /// Computes the signature of `request` as it is (no `Content-Digest` is added here).
    /// - Throws: ``SigningError``.
    public func signature(for request: AuthRequest, at date: Date) throws -> MessageSignature {
        try make(for: request, at: date).signature
    }

    /// The signature and its `@signature-params` value (the `Signature-Input` member), over the
    /// fields as a transport sends them: `Cookie` fields joined into one, as the verifier
    /// receives them (signed apart, they gave `a=1, b=2` for a wire `a=1; b=2`).
    private func make(for request: AuthRequest, at date: Date) throws -> (signature: MessageSignature, signatureParams: String) {
        if let configurationProblem { throw configurationProblem }
        var request = request
        request.head.headerFields = request.headerFieldsForHTTP1
        let created = Int64(date.timeIntervalSince1970.rounded(.down))
        var parameters = StructuredField.Parameters([("created", .integer(created))])
        if let validity { parameters["expires"] = .integer(created + Int64(validity.rounded(.down))) }
        if let nonce {
            let value = nonce()
            guard StructuredField.isValidString(value) else {
                throw SigningError.invalidConfiguration("the nonce must be printable ASCII")
            }
            parameters["nonce"] = .string(value)
        }
        for entry in trailingParameters.entries { parameters[entry.key] = entry.value }
        let signatureParams = plan.signatureParams(parameters)

        let base = try plan.base(for: .request(request.head), signatureParams: signatureParams, structuredFields: structuredFields)
        let bytes: Data
        do {
            bytes = try key.sign(Data(base.utf8))
        } catch {
            throw SigningError(code: .crypto, message: "the \(key.algorithm.rawValue) signature could not be made", underlying: error)
        }
        let signature = MessageSignature(
            label: label, components: components, parameters: parameters, base: base, signature: bytes,
            secretFields: request.options.secretFields
        )
        return (signature, signatureParams)
    }

    /// Names the label, key id and algorithm, never the key.
    public var description: String {
        "HTTPMessageSigner(label: \(label), keyID: \(keyID), algorithm: \(key.algorithm.rawValue))"
    }

    /// Shows the same as ``description``.
    public var customMirror: Mirror {
        Mirror(self, children: ["label": label, "keyID": keyID, "algorithm": key.algorithm, "components": components], displayStyle: .struct)
    }
}
