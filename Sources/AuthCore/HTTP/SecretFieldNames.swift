// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

/// Header and query item names whose values are secrets: never logged, never shown in a
/// description or mirror, and stripped from a request that goes to another origin.
///
/// One list serves every part that needs it. ``standard`` names what AuthKit itself puts on
/// requests (bearer and Basic `Authorization`, cookies, signature headers, the usual API-key
/// names). A credential that writes under a name of its own marks it on the request it
/// authorizes (``AuthRequest/markSecret(header:)``), so its configuration is the only place the
/// name is written; a container adds names for all its clients with
/// `container.markSecret(_:)`.
///
/// Names compare case-insensitively; they are kept lower-cased.
public struct SecretFieldNames: Sendable, Hashable {
    /// Lower-cased header names.
    public private(set) var headerNames: Set<String>
    /// Lower-cased query item names.
    public private(set) var queryItemNames: Set<String>

    /// Names nothing (what every request starts with, so it costs no allocation).
    public init() {
        headerNames = []
        queryItemNames = []
    }

    /// Names these header fields and query items as secret.
    public init(headers: some Sequence<String> = [String](), queryItems: some Sequence<String> = [String]()) {
        headerNames = Set(headers.map { $0.lowercased() })
        queryItemNames = Set(queryItems.map { $0.lowercased() })
    }

    /// Whether nothing is named.
    public var isEmpty: Bool { headerNames.isEmpty && queryItemNames.isEmpty }

    /// Whether `name` (any case) is a secret header.
    public func containsHeader(_ name: String) -> Bool {
        headerNames.contains(name) || headerNames.contains(name.lowercased())
    }

    /// Whether `name` (any case) is a secret query item.
    public func containsQueryItem(_ name: String) -> Bool {
        queryItemNames.contains(name) || queryItemNames.contains(name.lowercased())
    }

    /// Adds the names of `other`.
    public mutating func formUnion(_ other: SecretFieldNames) {
        headerNames.formUnion(other.headerNames)
        queryItemNames.formUnion(other.queryItemNames)
    }

    /// These names and those of `other`.
    public func union(_ other: SecretFieldNames) -> SecretFieldNames {
        var result = self
        result.formUnion(other)
        return result
    }

    /// What AuthKit's own credentials, cookies and signers put on requests and responses, and
    /// the names APIs commonly use for keys and tokens.
    public static let standard = SecretFieldNames(
        headers: [
            "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "api-key", "x-auth-token",
            "x-csrf-token", "x-xsrf-token", "signature", "signature-input", "x-signature", "x-amz-security-token",
            "x-amz-content-sha256", "www-authenticate", "proxy-authenticate",
        ],
        queryItems: [
            "access_token", "refresh_token", "id_token", "api_key", "apikey", "key", "token", "client_secret",
            "password", "code", "sig", "signature", "x-amz-signature", "x-amz-credential", "x-amz-security-token",
        ]
    )
}
