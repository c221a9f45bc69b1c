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

    /// `Name: value` for each field in order, each value as ``value(of:secrets:)`` shows it.
    static func fields(_ fields: HTTPFields, secrets: SecretFieldNames) -> [String] {
        fields.map { field in "\(field.name.rawName): \(value(of: field, secrets: secrets))" }
    }

    /// A field's value as descriptions and logs show it: redacted for a secret field; for a field
    /// whose value is a URL (`Location`, `Content-Location`, `Referer`), with the values of its
    /// secret query items redacted, as in a request's own target (a redirect to a presigned or
    /// token-carrying URL names the token there).
    static func value(of field: HTTPField, secrets: SecretFieldNames) -> String {
        if secrets.containsHeader(field.name.canonicalName) { return marker }
        guard urlFields.contains(field.name) else { return field.value }
        return QueryItems.redacting(secrets.queryItemNames, in: field.value)
    }

    /// The fields whose value is a URL, which may carry a secret query item.
    private static let urlFields: Set<HTTPField.Name> = [.location, .contentLocation, .referer]

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
