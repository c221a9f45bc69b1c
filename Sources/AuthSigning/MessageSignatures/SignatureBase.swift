// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import HTTPTypes
import AuthCore
import Foundation

/// Builds RFC 9421 signature bases (§2.5): one line per covered component, then the
/// `"@signature-params"` line, joined by LF with no trailing newline.
///
/// ```swift
/// let base = try SignatureBase.make(for: .request(head), covering: [.method, .authority], parameters: [("created", .integer(1618884473))])
/// ```
public enum SignatureBase {
    /// The message whose components are signed.
    public enum Message: Sendable {
        /// A request.
        case request(HTTPRequest)
        /// A response, with the request it answers (for `;req` components) when known.
        case response(HTTPResponse, request: HTTPRequest?)
    }

    /// The signature base for `components` of `message` with signature `parameters`.
    /// - Parameters:
    ///   - message: The request or response signed.
    ///   - components: The components covered, in order.
    ///   - parameters: The signature's parameters (`created`, `keyid`, …).
    ///   - structuredFields: The structured fields `;sf` and `;key` may name, by type.
    /// - Throws: ``SigningError`` when a component is missing, repeated or unsupported;
    ///   a component listed twice is reported before the message is read.
    public static func make(
        for message: Message,
        covering components: [ComponentIdentifier],
        parameters: StructuredField.Parameters,
        structuredFields: [String: StructuredFieldKind] = StructuredFieldKind.registered
    ) throws(SigningError) -> String {
        let plan = SignatureBasePlan(components)
        return try plan.base(for: message, signatureParams: plan.signatureParams(parameters), structuredFields: structuredFields)
    }

    /// The `@signature-params` value: the covered components as an inner list with parameters.
    public static func signatureParams(_ components: [ComponentIdentifier], _ parameters: StructuredField.Parameters) -> String {
        SignatureBasePlan(components).signatureParams(parameters)
    }

    /// The value of one component in `message`.
    /// - Parameters:
    ///   - component: The component.
    ///   - message: The request or response it is read from.
    ///   - structuredFields: The structured fields `;sf` and `;key` may name, by type.
    /// - Throws: ``SigningError`` when it is missing or unsupported.
    public static func value(
        of component: ComponentIdentifier, in message: Message,
        structuredFields: [String: StructuredFieldKind] = StructuredFieldKind.registered
    ) throws(SigningError) -> String {
        var message = message
        var parameters = component.parameters
        if parameters["req"] == .boolean(true) {
            guard case .response(_, let request?) = message else {
                throw SigningError(code: .componentNotFound, message: "\(component) needs the request a response answers")
            }
            message = .request(request)
            parameters["req"] = nil
        }
        if parameters["tr"] != nil {
            throw SigningError(code: .unsupportedComponent, message: "the ;tr component parameter is not supported (in \(component))")
        }
        if component.isDerived {
            return try derivedValue(component, parameters: parameters, message: message)
        }
        guard component.name == component.name.lowercased(), let name = HTTPField.Name(component.name) else {
            throw SigningError(code: .invalidComponent, message: "\(component) is not a lower-case field name")
        }
        let binary = parameters["bs"] == .boolean(true)
        let structured = parameters["sf"] == .boolean(true)
        let member = parameters["key"]
        for known in ["bs", "sf", "key"] { parameters[known] = nil }
        guard parameters.isEmpty else {
            throw SigningError(code: .unsupportedComponent, message: "\(component) has a parameter this implementation does not support")
        }
        guard !binary || (!structured && member == nil) else {
            throw SigningError(code: .invalidComponent, message: "\(component) combines ;bs with ;sf or ;key (RFC 9421 §2.1)")
        }
        let fields: HTTPFields
        switch message {
        case .request(let request): fields = request.headerFields
        case .response(let response, _): fields = response.headerFields
        }
        if binary {
            let lines = fields[values: name]
            guard !lines.isEmpty else { throw SignatureBasePlan.missingField(name) }
            return lines.map { StructuredField.BareItem.byteSequence(Data(Substring($0).trimmingSpaces().utf8)).serialized }.joined(separator: ", ")
        }
        var joined = ""
        try SignatureBasePlan.appendFieldValue(name, of: fields, to: &joined)
        if let member {
            return try dictionaryMember(member, of: joined, component: component)
        }
        if structured {
            guard let kind = structuredFields[component.name] else {
                throw SigningError(code: .invalidComponent, message: "\(component): the field is not known to be a structured field")
            }
            do {
                return try kind.reserialize(joined)
            } catch {
                throw SigningError(code: .invalidComponent, message: "\(component): the field is not a valid structured \(kind)", underlying: error)
            }
        }
        return joined
    }

    /// The serialized member `key` of a dictionary field (`;key`, RFC 9421 §2.1.2).
    private static func dictionaryMember(
        _ key: StructuredField.BareItem, of text: String, component: ComponentIdentifier
    ) throws(SigningError) -> String {
        guard case .string(let name) = key else {
            throw SigningError(code: .invalidComponent, message: "\(component): the ;key parameter must be a string")
        }
        let dictionary: StructuredField.Dictionary
        do {
            dictionary = try StructuredField.parseDictionary(text)
        } catch {
            throw SigningError(code: .invalidComponent, message: "\(component): the field is not a structured dictionary", underlying: error)
        }
        guard let member = dictionary[name] else {
            throw SigningError(code: .componentNotFound, message: "\(component): the dictionary has no member \(name)")
        }
        return member.serialized
    }

    private static func derivedValue(
        _ component: ComponentIdentifier, parameters: StructuredField.Parameters, message: Message
    ) throws(SigningError) -> String {
        let allowed: Set<String> = component.name == "@query-param" ? ["name"] : []
        guard parameters.entries.allSatisfy({ allowed.contains($0.key) }) else {
            throw SigningError(code: .unsupportedComponent, message: "\(component) has a parameter that does not apply to it")
        }
        if component.name == "@status" {
            guard case .response(let response, _) = message else {
                throw SigningError(code: .componentNotFound, message: "@status applies to responses only")
            }
            return String(response.status.code)
        }
        guard case .request(let request) = message else {
            throw SigningError(code: .componentNotFound, message: "\(component) applies to requests; use ;req on a response")
        }
        return try DerivedComponents.value(component, parameters: parameters, request: request)
    }
}
