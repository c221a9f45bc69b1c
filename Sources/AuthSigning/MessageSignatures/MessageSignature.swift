// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
public import Foundation

/// One computed or verified RFC 9421 signature with its inputs.
///
/// The properties hold the real values. Its `description`, `debugDescription` and `dump` show
/// the signature's size only, and the signature base with the values of covered secrets
/// redacted: those of ``/AuthCore/SecretFieldNames/standard`` (`Authorization`, cookies, API-key
/// query items, …) and those the signed or verified request marked
/// (``/AuthCore/RequestOptions/secretFields``), held in ``secretFields``.
public struct MessageSignature: Sendable {
    /// The label (dictionary key) of the signature.
    public let label: String
    /// The covered components, in order.
    public let components: [ComponentIdentifier]
    /// The signature parameters, in order.
    public let parameters: StructuredField.Parameters
    /// The signature base that was signed.
    public let base: String
    /// The signature bytes.
    public let signature: Data
    /// The header and query item names whose values the description and mirror redact:
    /// ``/AuthCore/SecretFieldNames/standard`` and the names given at creation. A signature made
    /// by ``HTTPMessageSigner`` or ``HTTPMessageSignatureVerifier`` holds the names its request
    /// marked secret.
    public let secretFields: SecretFieldNames

    /// Creates a signature record.
    /// - Parameters:
    ///   - label: The label (dictionary key).
    ///   - components: The covered components, in order.
    ///   - parameters: The signature parameters, in order.
    ///   - base: The signature base.
    ///   - signature: The signature bytes.
    ///   - secretFields: Names whose values the description redacts besides
    ///     ``/AuthCore/SecretFieldNames/standard``, such as the request's
    ///     ``/AuthCore/RequestOptions/secretFields``.
    public init(
        label: String, components: [ComponentIdentifier], parameters: StructuredField.Parameters, base: String, signature: Data,
        secretFields: SecretFieldNames = SecretFieldNames()
    ) {
        self.label = label
        self.components = components
        self.parameters = parameters
        self.base = base
        self.signature = signature
        self.secretFields = SecretFieldNames.standard.union(secretFields)
    }

    /// The `Signature-Input` member value: the inner list of components with parameters.
    public var inputMember: StructuredField.Member {
        .innerList(StructuredField.InnerList(components.map(\.item), parameters: parameters))
    }

    /// The `Signature` member value: the signature as a byte sequence.
    public var signatureMember: StructuredField.Member { .item(StructuredField.Item(.byteSequence(signature))) }

    /// `label=(…);created=…` as it appears in `Signature-Input`.
    public var signatureInput: String { StructuredField.Dictionary([(label, inputMember)]).serialized }

    /// `label=:…:` as it appears in `Signature`.
    public var signatureField: String { StructuredField.Dictionary([(label, signatureMember)]).serialized }

    /// The `keyid` parameter, if it is a string.
    public var keyID: String? { if case .string(let value)? = parameters["keyid"] { value } else { nil } }
}
