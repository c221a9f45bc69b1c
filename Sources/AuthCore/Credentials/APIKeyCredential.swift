// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Foundation
import HTTPTypes

/// An API key sent in a header, such as `X-API-Key: <key>`.
public struct APIKeyHeaderCredential: Credential {
    /// `api-key-header`.
    public static let kind = "api-key-header"
    /// The header name.
    public var headerName: String
    /// The key.
    public var key: Secret
    /// A prefix put before the key, such as `Token ` (empty by default).
    public var prefix: String

    /// Creates a header API key.
    public init(headerName: String = "X-API-Key", key: String, prefix: String = "") {
        self.headerName = headerName
        self.key = Secret(key)
        self.prefix = prefix
    }
    /// API keys do not expire by themselves.
    public var expiresAt: Date? { nil }
    /// Sets the header, and marks its name secret on the request (logs redact it, a hop to
    /// another origin drops it).
    public func authorize(_ request: inout AuthRequest) {
        guard let name = HTTPField.Name(headerName) else { return }
        request.head.headerFields[name] = prefix + key.reveal
        request.markSecret(header: name.canonicalName)  // lower-case already: no copy per request
    }
    /// The header name; never the key.
    public var description: String { "APIKeyHeaderCredential(header: \(headerName), key: <redacted>)" }
}

/// An API key sent as a query item, such as `?api_key=<key>`.
public struct APIKeyQueryCredential: Credential {
    /// `api-key-query`.
    public static let kind = "api-key-query"
    /// The query item name.
    public var parameterName: String
    /// The key.
    public var key: Secret

    /// Creates a query API key.
    public init(parameterName: String = "api_key", key: String) {
        self.parameterName = parameterName
        self.key = Secret(key)
    }
    /// API keys do not expire by themselves.
    public var expiresAt: Date? { nil }
    /// Adds the query item, replacing one of the same name, and marks its name secret on the
    /// request.
    public func authorize(_ request: inout AuthRequest) {
        request.head.path = QueryItems.setting(parameterName, to: key.reveal, in: request.head.path ?? "/")
        request.markSecret(queryItem: parameterName)
    }
    /// The parameter name; never the key.
    public var description: String { "APIKeyQueryCredential(parameter: \(parameterName), key: <redacted>)" }
}
