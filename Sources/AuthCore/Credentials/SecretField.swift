import HTTPTypes

/// A header field that carries a secret (`Authorization: Bearer …`), built and validated once
/// when its credential is made, so that authorizing a request only appends it.
///
/// Redacted like ``Secret``: its description and mirror never show the value, so a credential
/// holding one still dumps without its token.
struct SecretField: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The field.
    let field: HTTPField

    /// Builds the field; characters a field value may not hold become spaces, as `HTTPField` does.
    init(_ name: HTTPField.Name, value: String) {
        field = HTTPField(name: name, value: value)
    }

    /// Puts the field on `request`, replacing any field of the same name.
    func set(on request: inout AuthRequest) {
        if request.head.headerFields.contains(field.name) {
            request.head.headerFields[fields: field.name] = [field]
        } else {
            request.head.headerFields.append(field)
        }
    }

    /// Names the field, never its value.
    var description: String { "\(field.name): <redacted>" }
    /// Names the field, never its value.
    var debugDescription: String { description }
    /// A mirror with no children.
    var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
