// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthHTTPClient
import AuthOAuth2
import AuthSQLiteStore
import Foundation
import HTTPTypes
import Testing

/// Dynamic client registration (RFC 7591) and its management (RFC 7592), as a command-line tool
/// uses them to get a client id per install: against Authlib's endpoints
/// (`Interop/authlib_provider_extensions.py`) and idpyoidc's (`Interop/idpyoidc_provider.py`).
@Suite(.enabled(if: InteropPeer.shouldRun, InteropPeer.disabledNote), .timeLimit(.minutes(10)))
struct InteropClientRegistrationTests {
    static let cli = ClientMetadata(
        clientName: "orders-cli", redirectURIs: [URL(string: "http://127.0.0.1/callback")!], grantTypes: ["authorization_code", "refresh_token"],
        responseTypes: ["code"], tokenEndpointAuthMethod: "none", scope: "openid profile read", softwareID: "orders-cli")

    /// Signs alice in through the code flow (the peers consent at once).
    static func signIn(_ app: OAuth2Client, scopes: [String], transport: any Transport) async throws -> BearerTokenSet {
        let pending = try await app.startAuthorization(redirectURI: InteropOAuth2ProviderTests.redirectURI, scopes: scopes)
        return try await app.completeAuthorization(pending, redirect: try await InteropOAuth2ProviderTests.consent(pending, transport: transport))
    }

    /// A SQLite store in a fresh folder, sealed with a fresh key, removed after `body`.
    static func withSealedVault<T>(_ body: (CredentialVault, URL) async throws -> T) async throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("registration-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("credentials.sqlite")
        let store = try await SQLiteCredentialStore.open(at: path.path)
        return try await body(CredentialVault(store: store, cipher: try AESGCMCipher(key: AESGCMCipher.generateKey())), path)
    }

    @Test func aCommandLineToolRegistersOncePerInstallSignsInAndManagesItsRegistration() async throws {
        try await InteropPeer.run("authlib_provider.py", accessSeconds: 300) { peer in
            try await HTTPClientTransport.withTransport { transport in
                let provider = try InteropOAuth2ProviderTests.provider(peer, transport: transport)
                let registrar = ClientRegistrar(provider: provider, transport: transport)
                try await Self.withSealedVault { vault, path in
                    let install = AccountKey(namespace: "orders-cli", account: "install")
                    let registration = try await registrar.registeredClient(Self.cli, vault: vault, account: install)
                    #expect(registration.clientSecret == nil && registration.metadata.clientName == "orders-cli")
                    let token = try #require(registration.registrationAccessToken?.reveal)
                    // The next run of the tool finds it kept: no second registration.
                    #expect(try await registrar.registeredClient(Self.cli, vault: vault, account: install) == registration)
                    #expect(try await peer.counters(transport)["registrations"] == 1)
                    // Kept sealed: the database file does not hold the registration access token.
                    #expect(try Data(contentsOf: path).range(of: Data(token.utf8)) == nil)
                    #expect(!"\(registration)".contains(token) && !String(reflecting: registration).contains(token))

                    // The registered client signs alice in.
                    let app = try OAuth2Client(provider: provider, registration: registration, transport: transport)
                    let tokens = try await Self.signIn(app, scopes: ["openid", "read"], transport: transport)
                    #expect(try await app.validateIDToken(try #require(tokens.idToken?.reveal), nonce: nil).audience == [registration.clientID])

                    // RFC 7592: read, update (the whole metadata), delete.
                    #expect(try await registrar.read(registration).metadata.clientName == "orders-cli")
                    var renamed = registration.metadata
                    renamed.clientName = "orders-cli 2"
                    let updated = try await registrar.update(registration, to: renamed)
                    #expect(updated.metadata.clientName == "orders-cli 2" && updated.clientID == registration.clientID)
                    #expect(try await registrar.read(updated).metadata.clientName == "orders-cli 2")
                    try await registrar.delete(updated)
                    await #expect { try await registrar.read(updated) } throws: { ($0 as? AuthError)?.code == .invalidCredentials }
                    var forged = registration
                    forged.registrationAccessToken = Secret("forged")
                    await #expect { try await registrar.read(forged) } throws: { ($0 as? AuthError)?.code == .invalidCredentials }
                }
            }
        }
    }

    /// A registration answer that puts the management URI on another origin would have the
    /// registration access token sent there: refused, typed.
    @Test func aManagementURIOnAnotherOriginIsRefused() async throws {
        try await InteropPeer.run("authlib_provider.py", accessSeconds: 300) { peer in
            try await HTTPClientTransport.withTransport { transport in
                let body = FormURLEncoding.body([("client_uri_origin", "http://127.0.0.2:9")])
                _ = try await transport.send(AuthRequest(method: .post, url: peer.url("_registration"), headerFields: [.contentType: "application/x-www-form-urlencoded"], body: body))
                let registrar = ClientRegistrar(provider: try InteropOAuth2ProviderTests.provider(peer, transport: transport), transport: transport)
                await #expect { try await registrar.register(Self.cli) } throws: {
                    ($0 as? AuthError)?.code == .misconfigured && ($0 as? AuthError)?.message.contains("another origin") == true
                }
            }
        }
    }

    /// Metadata the provider refuses: a typed error with the provider's code underneath.
    @Test func refusedMetadataIsATypedError() async throws {
        try await InteropPeer.run("authlib_provider.py", accessSeconds: 300) { peer in
            try await HTTPClientTransport.withTransport { transport in
                let registrar = ClientRegistrar(provider: try InteropOAuth2ProviderTests.provider(peer, transport: transport), transport: transport)
                var bad = Self.cli
                bad.tokenEndpointAuthMethod = "tls_client_auth"  // not among the provider's methods
                await #expect { try await registrar.register(bad) } throws: {
                    ($0 as? AuthError)?.code == .misconfigured && (($0 as? AuthError)?.underlying as? OAuth2Error) != nil
                }
            }
        }
    }

    /// idpyoidc: a confidential client registers (its secret expires), reads its registration
    /// back, and signs alice in with `client_secret_basic`.
    @Test func idpyoidcRegistersAConfidentialClientThatSignsIn() async throws {
        try await InteropPeer.run("idpyoidc_provider.py", accessSeconds: 300) { peer in
            try await HTTPClientTransport.withTransport { transport in
                let provider = try InteropIdpyoidc.provider(peer, transport: transport)
                let registrar = ClientRegistrar(provider: provider, transport: transport)
                var metadata = Self.cli
                metadata.tokenEndpointAuthMethod = "client_secret_basic"
                let registration = try await registrar.register(metadata)
                #expect(registration.clientSecret != nil && registration.expiresAt != nil)
                #expect(try await registrar.read(registration).clientID == registration.clientID)
                let app = try OAuth2Client(provider: provider, registration: registration, transport: transport)
                let tokens = try await Self.signIn(app, scopes: ["openid"], transport: transport)
                #expect(try await app.validateIDToken(try #require(tokens.idToken?.reveal), nonce: nil).audience.contains(registration.clientID))
            }
        }
    }
}

/// The idpyoidc peer (`Interop/idpyoidc_provider.py`) as the tests use it.
enum InteropIdpyoidc {
    /// The provider, discovered with OpenID Connect Discovery.
    static func provider(_ peer: InteropPeer, transport: any Transport) throws -> OAuth2Provider {
        let port = try #require(peer.base.port)
        return OAuth2Provider(issuer: try #require(URL(string: "http://127.0.0.1:\(port)")), discovery: .openIDConfiguration, transport: transport)
    }

    /// A client registered with `metadata` (idpyoidc lets anyone register).
    static func client(_ metadata: ClientMetadata, provider: OAuth2Provider, transport: any Transport) async throws -> (OAuth2Client, ClientRegistration) {
        let registration = try await ClientRegistrar(provider: provider, transport: transport).register(metadata)
        return (try OAuth2Client(provider: provider, registration: registration, transport: transport), registration)
    }
}
