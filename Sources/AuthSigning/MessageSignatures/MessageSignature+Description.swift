// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Foundation

extension MessageSignature: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The signature base with the values of covered secrets replaced by `<redacted>`: header
    /// fields named in ``secretFields`` (`Authorization`, `Cookie`, …, and the names the request
    /// marked), secret `@query-param`s, and secret query items inside `@query`, `@target-uri`
    /// and `@request-target`.
    var redactedBase: String {
        let lines = base.split(separator: "\n", omittingEmptySubsequences: false)
        return lines.enumerated().map { index, line in
            guard index < components.count else { return String(line) }  // "@signature-params"
            let prefix = "\(components[index]): "
            guard line.hasPrefix(prefix) else { return SecretRedaction.marker }
            return prefix + Self.redacted(line.dropFirst(prefix.count), of: components[index], secrets: secretFields)
        }.joined(separator: "\n")
    }

    private static func redacted(_ value: Substring, of component: ComponentIdentifier, secrets: SecretFieldNames) -> String {
        switch component.name {
        case "@query-param":
            guard case .string(let name)? = component.parameters["name"] else { return SecretRedaction.marker }
            return secrets.containsQueryItem(Encoding.percentDecode(name)) ? SecretRedaction.marker : String(value)
        case "@query", "@target-uri", "@request-target":
            return SecretRedaction.target(value, secrets: secrets)
        case let name where !component.isDerived:
            return secrets.containsHeader(name) ? SecretRedaction.marker : String(value)
        default:
            return String(value)
        }
    }

    /// The `Signature-Input` member (label, components, parameters); never the signature bytes,
    /// which let whoever holds them replay the message while the signature is valid.
    public var description: String {
        "MessageSignature(\(signatureInput), signature: \(SecretRedaction.marker) (\(signature.count) bytes))"
    }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// Label, components, parameters and the signature base with secret values redacted (see
    /// ``description``); the signature shows only its size.
    public var customMirror: Mirror {
        Mirror(self, children: [
            "label": label,
            "components": components,
            "parameters": parameters,
            "base": redactedBase,
            "signature": "\(SecretRedaction.marker) (\(signature.count) bytes)",
        ], displayStyle: .struct)
    }
}
