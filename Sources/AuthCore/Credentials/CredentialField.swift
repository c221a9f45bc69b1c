// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import HTTPTypes

/// A header field that carries a secret (`Authorization: Bearer …`), built and validated once
/// when its credential is made, so that authorizing a request only appends it.
///
/// Redacted like ``Secret``: its description and mirror never show the value, so a credential
/// holding one still dumps without its token.
struct CredentialField: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The field.
    let field: HTTPField
    /// Header fields of only this one: what a request without fields gets, sharing this
    /// storage instead of allocating its own (`HTTPFields.append` costs about 600 instructions,
    /// through the generic `RangeReplaceableCollection` path).
    private let alone: HTTPFields

    /// Builds the field; characters a field value may not hold become spaces, as `HTTPField` does.
    init(_ name: HTTPField.Name, value: String) {
        field = HTTPField(name: name, value: value)
        var alone = HTTPFields()
        alone.append(field)
        self.alone = alone
    }

    /// Puts the field on `request`, replacing any field of the same name.
    func set(on request: inout AuthRequest) {
        if request.head.headerFields.isEmpty {
            request.head.headerFields = alone
        } else if request.head.headerFields.contains(field.name) {
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
