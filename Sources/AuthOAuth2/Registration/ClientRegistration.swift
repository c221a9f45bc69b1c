// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
public import Foundation
import HTTPTypes

/// A client registered at a provider (RFC 7591 §3.2.1): its id, secret, and what managing the
/// registration needs (RFC 7592: the registration access token and the URI it goes to).
///
/// It is a ``/AuthCore/Credential``, so that an app keeps it as it keeps tokens: in its
/// credential store, sealed by the vault's cipher when one is configured
/// (`vault.save(registration, for: install, item: ClientRegistration.item)`; see
/// `ClientRegistrar.registeredClient(_:vault:account:)`). As a credential it authorizes
/// management requests with the registration access token. Its description shows the client
/// id and issuer, never the secret or the token.
public struct ClientRegistration: Credential {
    /// The record kind.
    public static let kind = "oauth2-client-registration"
    /// The item a registration is kept under in an account's records.
    public static let item = "client-registration"

    /// The issuer of the provider the client is registered at.
    public var issuer: URL
    /// `client_id`.
    public var clientID: String
    /// `client_secret`, for a confidential client.
    public var clientSecret: Secret?
    /// `client_id_issued_at`.
    public var clientIDIssuedAt: Date?
    /// `client_secret_expires_at`; nil when the secret does not expire (RFC 7591's `0`).
    public var clientSecretExpiresAt: Date?
    /// `registration_access_token` (RFC 7592 §3), for reading, updating and deleting the
    /// registration.
    public var registrationAccessToken: Secret?
    /// `registration_client_uri` (RFC 7592 §3): where the registration is managed.
    public var registrationClientURI: URL?
    /// The metadata the provider registered (it may differ from what was asked).
    public var metadata: ClientMetadata

    /// Creates a registration (as read from a provider's answer, or restored).
    public init(issuer: URL, clientID: String, clientSecret: Secret? = nil, clientIDIssuedAt: Date? = nil, clientSecretExpiresAt: Date? = nil, registrationAccessToken: Secret? = nil, registrationClientURI: URL? = nil, metadata: ClientMetadata) {
        self.issuer = issuer
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.clientIDIssuedAt = clientIDIssuedAt
        self.clientSecretExpiresAt = clientSecretExpiresAt
        self.registrationAccessToken = registrationAccessToken
        self.registrationClientURI = registrationClientURI
        self.metadata = metadata
    }

    /// When the client secret expires, if it does.
    public var expiresAt: Date? { clientSecretExpiresAt }

    /// Puts `Authorization: Bearer <registration access token>` on a management request.
    public func authorize(_ request: inout AuthRequest) {
        guard let registrationAccessToken else { return }
        request.head.headerFields[.authorization] = "Bearer " + registrationAccessToken.reveal
    }

    /// How the client authenticates at the provider's endpoints, by its registered
    /// `token_endpoint_auth_method` (`client_secret_basic` when none was registered, as RFC 7591
    /// §2 says); nil for `private_key_jwt`, whose key only the app holds, and for a method
    /// that needs a secret the provider did not issue.
    public var authentication: OAuth2ClientAuthentication? {
        switch (metadata.tokenEndpointAuthMethod ?? "client_secret_basic", clientSecret) {
        case ("none", _): OAuth2ClientAuthentication.none
        case ("client_secret_basic", let secret?): .clientSecretBasic(secret: secret)
        case ("client_secret_post", let secret?): .clientSecretPost(secret: secret)
        case ("client_secret_jwt", let secret?): .clientSecretJWT(secret: secret)
        default: nil
        }
    }

    /// The client id, issuer and method; never the secret or the registration access token.
    public var description: String {
        "ClientRegistration(\(clientID) at \(issuer.absoluteString), \(metadata.tokenEndpointAuthMethod ?? "client_secret_basic"), secret: \(clientSecret == nil ? "none" : "<redacted>"), registration access token: \(registrationAccessToken == nil ? "none" : "<redacted>"))"
    }

    /// A provider's answer to a registration, a read or an update (RFC 7591 §3.2.1).
    struct Answer: Decodable {
        let client_id: String
        let client_secret: Secret?
        let client_id_issued_at: Double?
        let client_secret_expires_at: Double?
        let registration_access_token: Secret?
        let registration_client_uri: URL?
    }

    /// The registration a provider's answer describes; the registration access token of
    /// `previous` kept when the answer has none (RFC 7592 §2.2 lets the server keep it).
    static func parse(_ body: Data, issuer: URL, previous: ClientRegistration? = nil) throws -> ClientRegistration {
        let answer: Answer, metadata: ClientMetadata
        do {
            answer = try JSONDecoder().decode(Answer.self, from: body)
            metadata = try JSONDecoder().decode(ClientMetadata.self, from: body)
        } catch {
            throw AuthError(code: .decoding, message: "the registration answer is not a client information response (RFC 7591 §3.2.1): \(DecodingFailure(error))")
        }
        let expires = (answer.client_secret_expires_at ?? 0) > 0 ? answer.client_secret_expires_at.map(Date.init(timeIntervalSince1970:)) : nil
        return ClientRegistration(
            issuer: issuer, clientID: answer.client_id, clientSecret: answer.client_secret ?? previous?.clientSecret,
            clientIDIssuedAt: answer.client_id_issued_at.map(Date.init(timeIntervalSince1970:)), clientSecretExpiresAt: expires,
            registrationAccessToken: answer.registration_access_token ?? previous?.registrationAccessToken,
            registrationClientURI: answer.registration_client_uri ?? previous?.registrationClientURI, metadata: metadata)
    }
}
