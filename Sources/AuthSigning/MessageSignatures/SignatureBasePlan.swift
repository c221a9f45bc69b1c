// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import HTTPTypes

/// What a signature base needs from its covered components, worked out once: each line's
/// `"name";parameters: ` prefix, where its value comes from, and the inner list that opens the
/// `@signature-params` value. A signer keeps one for its life, so signing a request is one pass
/// of appends; ``SignatureBase/make(for:covering:parameters:structuredFields:)`` makes one per
/// call, so signer and verifier build bases by the same code.
struct SignatureBasePlan: Sendable {
    /// Where a line's value comes from.
    enum Source: Sendable {
        /// A field without parameters: its values trimmed and joined by `, `.
        case field(HTTPField.Name)
        /// A request-derived component without parameters.
        case derived
        /// Anything else: the general rules of ``SignatureBase/value(of:in:structuredFields:)``.
        case general
    }

    /// One covered component.
    struct Line: Sendable {
        let component: ComponentIdentifier
        /// `"name";parameters: `.
        let prefix: String
        let source: Source
    }

    let lines: [Line]
    /// `("name" "name";parameters)`: the covered components as an inner list.
    let componentList: String
    /// The first component listed twice, which makes every base of this plan invalid.
    private let repeated: ComponentIdentifier?

    init(_ components: [ComponentIdentifier]) {
        var seen = Set<ComponentIdentifier>()
        var repeated: ComponentIdentifier?
        var lines: [Line] = []
        lines.reserveCapacity(components.count)
        for component in components {
            if !seen.insert(component).inserted, repeated == nil { repeated = component }
            let identifier = component.description
            lines.append(Line(component: component, prefix: identifier + ": ", source: Self.source(of: component)))
        }
        self.lines = lines
        self.repeated = repeated
        componentList = "(" + lines.map { String($0.prefix.dropLast(2)) }.joined(separator: " ") + ")"
    }

    private static func source(of component: ComponentIdentifier) -> Source {
        guard component.parameters.isEmpty else { return .general }
        if component.isDerived {
            return component.name == "@status" || component.name == "@query-param" ? .general : .derived
        }
        guard component.name == component.name.lowercased(), let name = HTTPField.Name(component.name) else { return .general }
        return .field(name)
    }

    /// The `@signature-params` value for `parameters`.
    func signatureParams(_ parameters: StructuredField.Parameters) -> String {
        componentList + parameters.serialized
    }

    /// The signature base of `message`, ending with the `@signature-params` line whose value is
    /// `signatureParams`.
    /// - Throws: ``SigningError`` when a component is missing, repeated or unsupported.
    func base(
        for message: SignatureBase.Message, signatureParams: String, structuredFields: [String: StructuredFieldKind]
    ) throws(SigningError) -> String {
        if let repeated {
            throw SigningError(code: .invalidComponent, message: "the component \(repeated) is listed twice")
        }
        var base = ""
        base.reserveCapacity(256)
        for line in lines {
            base += line.prefix
            switch (line.source, message) {
            case (.field(let name), .request(let request)):
                try Self.appendFieldValue(name, of: request.headerFields, to: &base)
            case (.field(let name), .response(let response, _)):
                try Self.appendFieldValue(name, of: response.headerFields, to: &base)
            case (.derived, .request(let request)):
                base += try DerivedComponents.value(line.component, parameters: [], request: request)
            default:
                base += try SignatureBase.value(of: line.component, in: message, structuredFields: structuredFields)
            }
            base += "\n"
        }
        base += "\"@signature-params\": "
        base += signatureParams
        return base
    }

    /// Appends the values of the field `name`, each trimmed of spaces, joined by `, `
    /// (RFC 9421 §2.1): the value of a field component, here and in ``SignatureBase``.
    static func appendFieldValue(_ name: HTTPField.Name, of fields: HTTPFields, to base: inout String) throws(SigningError) {
        var found = false
        for field in fields where field.name == name {
            if found { base += ", " }
            base += Substring(field.value).trimmingSpaces()
            found = true
        }
        guard found else { throw missingField(name) }
    }

    /// The error for a covered field the message does not have.
    static func missingField(_ name: HTTPField.Name) -> SigningError {
        SigningError(code: .componentNotFound, message: "the message has no \(name.canonicalName) field")
    }
}
