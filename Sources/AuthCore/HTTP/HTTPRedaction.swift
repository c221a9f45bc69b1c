// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import HTTPTypes

/// The parts of a request or response as descriptions and mirrors show them: values of secret
/// header fields and query items (by ``SecretFieldNames``) replaced by `<redacted>`.
enum HTTPRedaction {
    /// What a hidden value shows instead.
    static let marker = "<redacted>"

    /// `Name: value` for each field in order, with the values of secret fields redacted.
    static func fields(_ fields: HTTPFields, secrets: SecretFieldNames) -> [String] {
        fields.map { field in
            "\(field.name.rawName): \(secrets.containsHeader(field.name.canonicalName) ? marker : field.value)"
        }
    }

    /// `path` with the values of secret query items redacted.
    static func path(_ path: String, secrets: SecretFieldNames) -> String {
        QueryItems.redacting(secrets.queryItemNames, in: path)
    }

    /// `authority` with any user info (`user:password@`) redacted.
    static func authority(_ authority: String) -> String {
        guard let at = authority.lastIndex(of: "@") else { return authority }
        return marker + authority[at...]
    }
}
