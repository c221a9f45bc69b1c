// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Foundation

/// What an authorization server says about itself (RFC 8414 §2; OpenID Connect Discovery 1.0
/// §3 for the OpenID fields), or what a caller configures by hand for a server that publishes
/// nothing.
///
/// ```swift
/// let metadata = AuthorizationServerMetadata(
///     issuer: URL(string: "https://auth.example.com")!,
///     authorizationEndpoint: URL(string: "https://auth.example.com/authorize")!,
///     tokenEndpoint: URL(string: "https://auth.example.com/token")!)
/// ```
public struct AuthorizationServerMetadata: Sendable, Equatable, Codable {
    /// `issuer`: the server's identifier, an https URL without query or fragment.
    public var issuer: URL
    /// `authorization_endpoint`, for the authorization code flow.
    public var authorizationEndpoint: URL?
    /// `token_endpoint`.
    public var tokenEndpoint: URL
    /// `revocation_endpoint` (RFC 7009).
    public var revocationEndpoint: URL?
    /// `introspection_endpoint` (RFC 7662).
    public var introspectionEndpoint: URL?
    /// `device_authorization_endpoint` (RFC 8628).
    public var deviceAuthorizationEndpoint: URL?
    /// `jwks_uri`: the server's signing keys.
    public var jwksURI: URL?
    /// `userinfo_endpoint` (OpenID Connect).
    public var userinfoEndpoint: URL?
    /// `registration_endpoint` (RFC 7591).
    public var registrationEndpoint: URL?
    /// `scopes_supported`.
    public var scopesSupported: [String]?
    /// `grant_types_supported`; RFC 8414 reads a missing list as authorization code and implicit.
    public var grantTypesSupported: [String]?
    /// `token_endpoint_auth_methods_supported`; RFC 8414 reads a missing list as
    /// `client_secret_basic`.
    public var tokenEndpointAuthMethodsSupported: [String]?
    /// `code_challenge_methods_supported` (RFC 7636); a missing list means the server announces
    /// no PKCE support (PKCE is sent anyway: RFC 9700 §2.1.1 recommends it for every client).
    public var codeChallengeMethodsSupported: [String]?
    /// `authorization_response_iss_parameter_supported` (RFC 9207): the server puts `iss` on
    /// its authorization responses, and a response without it is then refused.
    public var authorizationResponseIssParameterSupported: Bool?
    /// `pushed_authorization_request_endpoint` (RFC 9126).
    public var pushedAuthorizationRequestEndpoint: URL?
    /// `require_pushed_authorization_requests` (RFC 9126 §5): the server accepts authorization
    /// requests only through its pushed authorization request endpoint; the client then pushes
    /// every one.
    public var requirePushedAuthorizationRequests: Bool?
    /// `end_session_endpoint` (OpenID Connect RP-Initiated Logout 1.0): where the browser is
    /// sent to sign the user out at the provider.
    public var endSessionEndpoint: URL?

    enum CodingKeys: String, CodingKey {
        case issuer
        case authorizationEndpoint = "authorization_endpoint"
        case tokenEndpoint = "token_endpoint"
        case revocationEndpoint = "revocation_endpoint"
        case introspectionEndpoint = "introspection_endpoint"
        case deviceAuthorizationEndpoint = "device_authorization_endpoint"
        case jwksURI = "jwks_uri"
        case userinfoEndpoint = "userinfo_endpoint"
        case registrationEndpoint = "registration_endpoint"
        case scopesSupported = "scopes_supported"
        case grantTypesSupported = "grant_types_supported"
        case tokenEndpointAuthMethodsSupported = "token_endpoint_auth_methods_supported"
        case codeChallengeMethodsSupported = "code_challenge_methods_supported"
        case authorizationResponseIssParameterSupported = "authorization_response_iss_parameter_supported"
        case pushedAuthorizationRequestEndpoint = "pushed_authorization_request_endpoint"
        case requirePushedAuthorizationRequests = "require_pushed_authorization_requests"
        case endSessionEndpoint = "end_session_endpoint"
    }

    /// Metadata configured by hand.
    public init(
        issuer: URL, authorizationEndpoint: URL? = nil, tokenEndpoint: URL, revocationEndpoint: URL? = nil,
        introspectionEndpoint: URL? = nil, deviceAuthorizationEndpoint: URL? = nil, jwksURI: URL? = nil,
        authorizationResponseIssParameterSupported: Bool? = nil, pushedAuthorizationRequestEndpoint: URL? = nil,
        requirePushedAuthorizationRequests: Bool? = nil, endSessionEndpoint: URL? = nil
    ) {
        self.pushedAuthorizationRequestEndpoint = pushedAuthorizationRequestEndpoint
        self.requirePushedAuthorizationRequests = requirePushedAuthorizationRequests
        self.endSessionEndpoint = endSessionEndpoint
        self.authorizationResponseIssParameterSupported = authorizationResponseIssParameterSupported
        self.issuer = issuer
        self.authorizationEndpoint = authorizationEndpoint
        self.tokenEndpoint = tokenEndpoint
        self.revocationEndpoint = revocationEndpoint
        self.introspectionEndpoint = introspectionEndpoint
        self.deviceAuthorizationEndpoint = deviceAuthorizationEndpoint
        self.jwksURI = jwksURI
    }
}
