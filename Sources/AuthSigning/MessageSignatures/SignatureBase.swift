public import HTTPTypes
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
    /// - Throws: ``MessageSignatureError`` when a component is missing, repeated or unsupported.
    public static func make(
        for message: Message,
        covering components: [ComponentIdentifier],
        parameters: StructuredField.Parameters
    ) throws(MessageSignatureError) -> String {
        var lines: [String] = []
        var seen = Set<ComponentIdentifier>()
        for component in components {
            guard seen.insert(component).inserted else {
                throw MessageSignatureError(code: .invalidComponent, message: "the component \(component) is listed twice")
            }
            lines.append("\(component): \(try value(of: component, in: message))")
        }
        lines.append("\"@signature-params\": \(signatureParams(components, parameters))")
        return lines.joined(separator: "\n")
    }

    /// The `@signature-params` value: the covered components as an inner list with parameters.
    public static func signatureParams(_ components: [ComponentIdentifier], _ parameters: StructuredField.Parameters) -> String {
        StructuredField.InnerList(components.map(\.item), parameters: parameters).serialized
    }

    /// The value of one component in `message`.
    /// - Throws: ``MessageSignatureError`` when it is missing or unsupported.
    public static func value(of component: ComponentIdentifier, in message: Message) throws(MessageSignatureError) -> String {
        var message = message
        var parameters = component.parameters
        if parameters["req"] == .boolean(true) {
            guard case .response(_, let request?) = message else {
                throw MessageSignatureError(code: .componentNotFound, message: "\(component) needs the request a response answers")
            }
            message = .request(request)
            parameters["req"] = nil
        }
        for key in ["sf", "key", "tr"] where parameters[key] != nil {
            throw MessageSignatureError(code: .unsupportedComponent, message: "the ;\(key) component parameter is not supported (in \(component))")
        }
        if component.isDerived {
            return try derivedValue(component, parameters: parameters, message: message)
        }
        guard component.name == component.name.lowercased(), let name = HTTPField.Name(component.name) else {
            throw MessageSignatureError(code: .invalidComponent, message: "\(component) is not a lower-case field name")
        }
        let binary = parameters["bs"] == .boolean(true)
        parameters["bs"] = nil
        guard parameters.isEmpty else {
            throw MessageSignatureError(code: .unsupportedComponent, message: "\(component) has a parameter this implementation does not support")
        }
        let values: [String]
        switch message {
        case .request(let request): values = request.headerFields[values: name]
        case .response(let response, _): values = response.headerFields[values: name]
        }
        guard !values.isEmpty else {
            throw MessageSignatureError(code: .componentNotFound, message: "the message has no \(component.name) field")
        }
        let trimmed = values.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " \t")) }
        if binary {
            return trimmed.map { StructuredField.BareItem.byteSequence(Data($0.utf8)).serialized }.joined(separator: ", ")
        }
        return trimmed.joined(separator: ", ")
    }

    private static func derivedValue(
        _ component: ComponentIdentifier, parameters: StructuredField.Parameters, message: Message
    ) throws(MessageSignatureError) -> String {
        let allowed: Set<String> = component.name == "@query-param" ? ["name"] : []
        guard parameters.entries.allSatisfy({ allowed.contains($0.key) }) else {
            throw MessageSignatureError(code: .unsupportedComponent, message: "\(component) has a parameter that does not apply to it")
        }
        if component.name == "@status" {
            guard case .response(let response, _) = message else {
                throw MessageSignatureError(code: .componentNotFound, message: "@status applies to responses only")
            }
            return String(response.status.code)
        }
        guard case .request(let request) = message else {
            throw MessageSignatureError(code: .componentNotFound, message: "\(component) applies to requests; use ;req on a response")
        }
        return try DerivedComponents.value(component, parameters: parameters, request: request)
    }
}
