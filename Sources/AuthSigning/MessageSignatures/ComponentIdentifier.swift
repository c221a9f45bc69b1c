// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// An RFC 9421 component identifier: a lower-cased field name or a derived `@` component,
/// with its parameters (`;name=`, `;req`, `;bs`, `;sf`, `;key=`).
///
/// ```swift
/// let covered: [ComponentIdentifier] = [.method, .authority, .path, .header("content-digest"), .queryParam("id")]
/// ```
public struct ComponentIdentifier: Sendable, Hashable, CustomStringConvertible {
    /// The component name: `@method`, `content-type`, …
    public var name: String
    /// The component's parameters, in order.
    public var parameters: StructuredField.Parameters

    /// Creates an identifier; field names are lower-cased.
    public init(_ name: String, parameters: StructuredField.Parameters = []) {
        self.name = name.hasPrefix("@") ? name : name.lowercased()
        self.parameters = parameters
    }

    /// `@method`: the request method.
    public static let method = Self("@method")
    /// `@target-uri`: the full target URI.
    public static let targetURI = Self("@target-uri")
    /// `@authority`: host and non-default port, lower-cased.
    public static let authority = Self("@authority")
    /// `@scheme`: `http` or `https`.
    public static let scheme = Self("@scheme")
    /// `@request-target`: path and query as sent.
    public static let requestTarget = Self("@request-target")
    /// `@path`: the absolute path.
    public static let path = Self("@path")
    /// `@query`: `?` and the query.
    public static let query = Self("@query")
    /// `@status`: a response's three-digit status.
    public static let status = Self("@status")

    /// A header field, by name (lower-cased).
    public static func header(_ name: String) -> Self { Self(name) }

    /// A structured header field re-serialized strictly (`;sf`, RFC 9421 §2.1.1); its type must be
    /// known to the signer and the verifier (``StructuredFieldKind``).
    public static func header(_ name: String, structured: Bool) -> Self {
        structured ? Self(name, parameters: [("sf", .boolean(true))]) : Self(name)
    }

    /// One member of a dictionary header field (`;key="member"`, RFC 9421 §2.1.2).
    public static func dictionaryMember(_ key: String, of name: String) -> Self {
        Self(name, parameters: [("key", .string(key))])
    }

    /// `@query-param;name="…"`: one query parameter, by its encoded name.
    public static func queryParam(_ name: String) -> Self {
        Self("@query-param", parameters: [("name", .string(name))])
    }

    /// Whether this is a derived (`@`) component.
    public var isDerived: Bool { name.hasPrefix("@") }

    /// The identifier as a structured field item: a string with parameters.
    public var item: StructuredField.Item { StructuredField.Item(.string(name), parameters: parameters) }

    /// The serialized identifier, e.g. `"@query-param";name="id"`.
    public var description: String { item.serialized }
}
