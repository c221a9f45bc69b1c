// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes

/// Reads one labelled signature out of `Signature-Input` and `Signature`.
enum SignatureHeaders {
    /// The parsed signature (its `base` is empty: the verifier computes it).
    struct Parsed {
        var label: String
        var signature: MessageSignature
    }

    static func parse(_ fields: HTTPFields, label wanted: String?) throws(SigningError) -> Parsed {
        guard let inputText = fields[HTTPMessageSigner.signatureInputField] else {
            throw SigningError(code: .missingSignatureInput, message: "the message has no Signature-Input field")
        }
        let inputs: StructuredField.Dictionary
        do {
            inputs = try StructuredField.parseDictionary(inputText)
        } catch {
            throw SigningError(code: .malformedSignatureInput, message: "Signature-Input is not a structured dictionary", underlying: error)
        }
        guard let signatureText = fields[HTTPMessageSigner.signatureField] else {
            throw SigningError(code: .missingSignature, message: "the message has no Signature field")
        }
        let signatures: StructuredField.Dictionary
        do {
            signatures = try StructuredField.parseDictionary(signatureText)
        } catch {
            throw SigningError(code: .malformedSignature, message: "Signature is not a structured dictionary", underlying: error)
        }
        guard let label = wanted ?? inputs.entries.first?.key else {
            throw SigningError(code: .malformedSignatureInput, message: "Signature-Input is empty")
        }
        guard let input = inputs[label] else {
            throw SigningError(code: .labelNotFound, message: "Signature-Input has no signature labelled \(label)")
        }
        guard case .innerList(let list) = input else {
            throw SigningError(code: .malformedSignatureInput, message: "Signature-Input member \(label) is not an inner list")
        }
        var components: [ComponentIdentifier] = []
        for item in list.items {
            guard case .string(let name) = item.bareItem, !name.isEmpty else {
                throw SigningError(code: .malformedSignatureInput, message: "Signature-Input member \(label) covers a component that is not a string")
            }
            guard name == name.lowercased() else {
                throw SigningError(code: .invalidComponent, message: "component names must be lower case (in \(label))")
            }
            components.append(ComponentIdentifier(name, parameters: item.parameters))
        }
        guard let signatureMember = signatures[label] else {
            throw SigningError(code: .missingSignature, message: "Signature has no member labelled \(label)")
        }
        guard case .item(let item) = signatureMember, case .byteSequence(let bytes) = item.bareItem else {
            throw SigningError(code: .malformedSignature, message: "Signature member \(label) is not a byte sequence")
        }
        return Parsed(
            label: label,
            signature: MessageSignature(label: label, components: components, parameters: list.parameters, base: "", signature: bytes)
        )
    }
}
