// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthOAuth2
import Foundation
import Testing

/// RFC 8414 §3.2's example metadata decodes field by field.
@Suite struct AuthorizationServerMetadataTests {
    static let example = """
        {
         "issuer": "https://server.example.com",
         "authorization_endpoint": "https://server.example.com/authorize",
         "token_endpoint": "https://server.example.com/token",
         "token_endpoint_auth_methods_supported": ["client_secret_basic", "private_key_jwt"],
         "token_endpoint_auth_signing_alg_values_supported": ["RS256", "ES256"],
         "userinfo_endpoint": "https://server.example.com/userinfo",
         "jwks_uri": "https://server.example.com/jwks.json",
         "registration_endpoint": "https://server.example.com/register",
         "scopes_supported": ["openid", "profile", "email", "address", "phone", "offline_access"],
         "response_types_supported": ["code", "code token"],
         "service_documentation": "http://server.example.com/service_documentation.html",
         "ui_locales_supported": ["en-US", "en-GB", "en-CA", "fr-FR", "fr-CA"]
        }
        """

    @Test func theRFC8414ExampleDecodes() throws {
        let metadata = try JSONDecoder().decode(AuthorizationServerMetadata.self, from: Data(Self.example.utf8))
        #expect(metadata.issuer.absoluteString == "https://server.example.com")
        #expect(metadata.authorizationEndpoint?.absoluteString == "https://server.example.com/authorize")
        #expect(metadata.tokenEndpoint.absoluteString == "https://server.example.com/token")
        #expect(metadata.tokenEndpointAuthMethodsSupported == ["client_secret_basic", "private_key_jwt"])
        #expect(metadata.jwksURI?.absoluteString == "https://server.example.com/jwks.json")
        #expect(metadata.scopesSupported?.contains("offline_access") == true)
        #expect(metadata.revocationEndpoint == nil)
        #expect(metadata.codeChallengeMethodsSupported == nil)
    }
}
