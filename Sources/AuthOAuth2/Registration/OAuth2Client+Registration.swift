// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
import Foundation

extension OAuth2Client {
    /// The client a registration describes (RFC 7591): its id, and its authentication by the
    /// registered `token_endpoint_auth_method` and secret.
    /// - Parameters:
    ///   - provider: The provider the client is registered at.
    ///   - registration: The registration.
    ///   - authentication: How the client authenticates, for `private_key_jwt` (the key is the
    ///     app's); by default what the registration says.
    ///   - transport: Sends the requests (the plain transport).
    ///   - clock: Gives the issue time of tokens whose response has no `Date` field.
    /// - Throws: `AuthError` `.misconfigured` when the registration is for another provider, or
    ///   its method needs a key or a secret it does not carry.
    public init(provider: OAuth2Provider, registration: ClientRegistration, authentication: OAuth2ClientAuthentication? = nil, transport: any Transport, clock: any AuthClock = SystemClock()) throws {
        guard registration.issuer == provider.issuer else {
            throw AuthError(code: .misconfigured, message: "the registration of \(registration.clientID) is at \(registration.issuer.absoluteString), not \(provider.issuer.absoluteString)")
        }
        guard let authentication = authentication ?? registration.authentication else {
            throw AuthError(code: .misconfigured, message: "the registration of \(registration.clientID) uses \(registration.metadata.tokenEndpointAuthMethod ?? "client_secret_basic"), which needs a key or secret it does not carry: pass the authentication")
        }
        self.init(provider: provider, clientID: registration.clientID, authentication: authentication, transport: transport, clock: clock)
    }
}
