// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
public import Foundation

/// What a client says about itself when it registers (RFC 7591 §2): the fields a native app or
/// command-line tool needs, and any other field as JSON.
///
/// ```swift
/// let metadata = ClientMetadata(clientName: "orders-cli", redirectURIs: [URL(string: "http://127.0.0.1/callback")!], grantTypes: ["authorization_code", "refresh_token"], tokenEndpointAuthMethod: "none")
/// ```
public struct ClientMetadata: Sendable, Equatable, Codable {
    /// `redirect_uris`.
    public var redirectURIs: [URL]?
    /// `token_endpoint_auth_method`: `none` for a public client, `client_secret_basic` (the
    /// default of RFC 7591), `client_secret_post`, `client_secret_jwt`, `private_key_jwt`.
    public var tokenEndpointAuthMethod: String?
    /// `grant_types`.
    public var grantTypes: [String]?
    /// `response_types`.
    public var responseTypes: [String]?
    /// `client_name`.
    public var clientName: String?
    /// `scope`, space-separated.
    public var scope: String?
    /// `software_id`: the same for every install of the software.
    public var softwareID: String?
    /// `software_version`.
    public var softwareVersion: String?
    /// `jwks`: the client's public keys, for `private_key_jwt` and signed request objects.
    public var jwks: JSONValue?
    /// Other fields, sent and kept as they are (`post_logout_redirect_uris`, `contacts`, …).
    public var extra: [String: JSONValue]

    enum CodingKeys: String, CodingKey, CaseIterable {
        case redirectURIs = "redirect_uris", tokenEndpointAuthMethod = "token_endpoint_auth_method", grantTypes = "grant_types"
        case responseTypes = "response_types", clientName = "client_name", scope, softwareID = "software_id"
        case softwareVersion = "software_version", jwks
    }

    /// Fields that belong to the registration itself (RFC 7591 §3.2.1, RFC 7592 §3), not to
    /// the metadata: never kept in ``extra``.
    static let registrationFields: Set<String> = [
        "client_id", "client_secret", "client_id_issued_at", "client_secret_expires_at", "registration_access_token", "registration_client_uri",
    ]

    /// Creates metadata.
    /// - Parameters:
    ///   - clientName: `client_name`.
    ///   - redirectURIs: `redirect_uris`.
    ///   - grantTypes: `grant_types`.
    ///   - responseTypes: `response_types`.
    ///   - tokenEndpointAuthMethod: `token_endpoint_auth_method`.
    ///   - scope: `scope`.
    ///   - softwareID: `software_id`.
    ///   - softwareVersion: `software_version`.
    ///   - jwks: `jwks`.
    ///   - extra: Other fields.
    public init(clientName: String? = nil, redirectURIs: [URL]? = nil, grantTypes: [String]? = nil, responseTypes: [String]? = nil, tokenEndpointAuthMethod: String? = nil, scope: String? = nil, softwareID: String? = nil, softwareVersion: String? = nil, jwks: JSONValue? = nil, extra: [String: JSONValue] = [:]) {
        self.clientName = clientName
        self.redirectURIs = redirectURIs
        self.grantTypes = grantTypes
        self.responseTypes = responseTypes
        self.tokenEndpointAuthMethod = tokenEndpointAuthMethod
        self.scope = scope
        self.softwareID = softwareID
        self.softwareVersion = softwareVersion
        self.jwks = jwks
        self.extra = extra
    }

    /// Decodes the metadata of a registration request or answer; unknown fields go to ``extra``.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        redirectURIs = try c.decodeIfPresent([URL].self, forKey: .redirectURIs)
        tokenEndpointAuthMethod = try c.decodeIfPresent(String.self, forKey: .tokenEndpointAuthMethod)
        grantTypes = try c.decodeIfPresent([String].self, forKey: .grantTypes)
        responseTypes = try c.decodeIfPresent([String].self, forKey: .responseTypes)
        clientName = try c.decodeIfPresent(String.self, forKey: .clientName)
        scope = try c.decodeIfPresent(String.self, forKey: .scope)
        softwareID = try c.decodeIfPresent(String.self, forKey: .softwareID)
        softwareVersion = try c.decodeIfPresent(String.self, forKey: .softwareVersion)
        jwks = try c.decodeIfPresent(JSONValue.self, forKey: .jwks)
        let known = Set(CodingKeys.allCases.map(\.rawValue)).union(Self.registrationFields)
        extra = try [String: JSONValue](from: decoder).filter { !known.contains($0.key) }
    }

    /// Encodes the metadata as a registration request carries it.
    public func encode(to encoder: any Encoder) throws {
        var other = encoder.container(keyedBy: AnyKey.self)
        for (key, value) in extra where !Self.registrationFields.contains(key) {
            try other.encode(value, forKey: AnyKey(key))
        }
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(redirectURIs, forKey: .redirectURIs)
        try c.encodeIfPresent(tokenEndpointAuthMethod, forKey: .tokenEndpointAuthMethod)
        try c.encodeIfPresent(grantTypes, forKey: .grantTypes)
        try c.encodeIfPresent(responseTypes, forKey: .responseTypes)
        try c.encodeIfPresent(clientName, forKey: .clientName)
        try c.encodeIfPresent(scope, forKey: .scope)
        try c.encodeIfPresent(softwareID, forKey: .softwareID)
        try c.encodeIfPresent(softwareVersion, forKey: .softwareVersion)
        try c.encodeIfPresent(jwks, forKey: .jwks)
    }
}

/// A JSON object key named at run time.
struct AnyKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
