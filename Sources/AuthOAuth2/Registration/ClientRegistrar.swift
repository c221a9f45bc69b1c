// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
public import Foundation
import HTTPTypes

/// Registers clients at a provider (RFC 7591) and manages their registrations (RFC 7592): how a
/// native app or command-line tool gets a client id of its own, per install.
///
/// The registration access token is sent only to the registration's `registration_client_uri`,
/// and only when that URI is on the registration endpoint's origin: a registration answer that
/// points it elsewhere is refused, so the token cannot be sent to another server.
///
/// ```swift
/// let registrar = ClientRegistrar(provider: oauthProvider, transport: transport)
/// let install = AccountKey(namespace: "orders-cli", account: "install")
/// let metadata = ClientMetadata(clientName: "orders-cli", redirectURIs: [URL(string: "http://127.0.0.1/callback")!], tokenEndpointAuthMethod: "none")
/// let registration = try await registrar.registeredClient(metadata, vault: vault, account: install)
/// let app = try OAuth2Client(provider: oauthProvider, registration: registration, transport: transport)
/// ```
public struct ClientRegistrar: Sendable {
    /// The provider.
    public let provider: OAuth2Provider
    /// An initial access token (RFC 7591 §3), when the provider allows only authorized registrations.
    public let initialAccessToken: Secret?
    /// The bounds of each answer.
    public let limits: AnswerLimits
    private let transport: any Transport

    /// Creates a registrar.
    /// - Parameters:
    ///   - provider: The provider; its metadata must name a `registration_endpoint`.
    ///   - initialAccessToken: Sent as a bearer token with each registration, when the provider
    ///     requires one.
    ///   - transport: Sends the requests (the plain transport).
    ///   - limits: The bounds of each answer.
    public init(provider: OAuth2Provider, initialAccessToken: Secret? = nil, transport: any Transport, limits: AnswerLimits = AnswerLimits()) {
        self.provider = provider
        self.initialAccessToken = initialAccessToken
        self.transport = transport
        self.limits = limits
    }

    /// Registers a client (RFC 7591 §3.1).
    /// - Parameter metadata: What the client says about itself.
    /// - Returns: The registration; keep it as a secret (see `registeredClient(_:vault:account:)`).
    /// - Throws: `AuthError` `.misconfigured` when the provider has no registration endpoint or
    ///   refuses the metadata (`invalid_redirect_uri`, `invalid_client_metadata`, …; the
    ///   ``OAuth2Error`` underneath), or when its answer puts the registration's management on
    ///   another origin; `.decoding` for an answer that is not a registration.
    public func register(_ metadata: ClientMetadata) async throws -> ClientRegistration {
        let server = try await provider.metadata()
        guard let endpoint = server.registrationEndpoint else {
            throw AuthError(code: .misconfigured, message: "the provider \(server.issuer.absoluteString) has no registration endpoint (registration_endpoint)")
        }
        var request = try AuthRequest(method: .post, url: endpoint, headerFields: [.contentType: "application/json", .accept: "application/json"], body: try JSONEncoder().encode(metadata))
        if let initialAccessToken { request.head.headerFields[.authorization] = "Bearer " + initialAccessToken.reveal }
        let response = try await transport.send(request, within: limits, reading: "the registration endpoint")
        guard response.status.code == 201 || response.status.code == 200 else { throw Self.error(from: response, doing: "registration") }
        return try checked(ClientRegistration.parse(response.body, issuer: server.issuer), endpoint: endpoint)
    }

    /// Reads a registration as the provider now has it (RFC 7592 §2.1).
    /// - Throws: `AuthError` `.invalidCredentials` when the provider no longer knows the client
    ///   or its registration access token (register again); `.misconfigured` when the
    ///   registration cannot be managed (no token or URI).
    public func read(_ registration: ClientRegistration) async throws -> ClientRegistration {
        let response = try await manage(registration, method: .get)
        guard response.status.code == 200 else { throw Self.error(from: response, doing: "reading the registration") }
        return try ClientRegistration.parse(response.body, issuer: registration.issuer, previous: registration)
    }

    /// Replaces a registration's metadata (RFC 7592 §2.2): the whole of it, as RFC 7592 asks.
    /// - Throws: As ``read(_:)``; `.misconfigured` when the provider refuses the metadata.
    public func update(_ registration: ClientRegistration, to metadata: ClientMetadata) async throws -> ClientRegistration {
        var body = try JSONSerialization.jsonObject(with: JSONEncoder().encode(metadata)) as? [String: Any] ?? [:]
        body["client_id"] = registration.clientID
        if let secret = registration.clientSecret { body["client_secret"] = secret.reveal }
        let response = try await manage(registration, method: .put, body: try JSONSerialization.data(withJSONObject: body))
        guard response.status.code == 200 else { throw Self.error(from: response, doing: "updating the registration") }
        return try ClientRegistration.parse(response.body, issuer: registration.issuer, previous: registration)
    }

    /// Deletes a registration (RFC 7592 §2.3): the client id and secret stop working.
    /// - Throws: As ``read(_:)``.
    public func delete(_ registration: ClientRegistration) async throws {
        let response = try await manage(registration, method: .delete)
        guard response.status.code == 204 || response.status.code == 200 else { throw Self.error(from: response, doing: "deleting the registration") }
    }

    /// The client registered for `account` (an install of the app): the one kept in `vault`
    /// when there is one for this provider whose secret has not expired, or a new registration,
    /// kept there before it is returned.
    ///
    /// The vault stores it as any credential (sealed by its cipher when it has one), under
    /// ``ClientRegistration/item`` of the account. Two processes of one install registering at
    /// the same moment may each register; the last one kept wins and the other registration is
    /// left unused at the provider.
    /// - Parameters:
    ///   - metadata: What to register when there is no usable registration.
    ///   - vault: Where the registration is kept.
    ///   - account: The install's account.
    ///   - now: The time a kept secret's expiry is compared with.
    public func registeredClient(_ metadata: ClientMetadata, vault: CredentialVault, account: AccountKey, now: Date = Date()) async throws -> ClientRegistration {
        if let kept = try await vault.load(ClientRegistration.self, for: account, item: ClientRegistration.item),
           kept.issuer == provider.issuer, kept.expiresAt.map({ $0 > now }) ?? true {
            return kept
        }
        let registration = try await register(metadata)
        try await vault.save(registration, for: account, item: ClientRegistration.item)
        return registration
    }

    private func manage(_ registration: ClientRegistration, method: HTTPRequest.Method, body: Data = Data()) async throws -> AuthResponse {
        guard let uri = registration.registrationClientURI, registration.registrationAccessToken != nil else {
            throw AuthError(code: .misconfigured, message: "the registration of \(registration.clientID) has no registration_client_uri and registration access token: the provider does not let it be managed")
        }
        var request = try AuthRequest(method: method, url: uri, headerFields: [.accept: "application/json"], body: body)
        if !body.isEmpty { request.head.headerFields[.contentType] = "application/json" }
        registration.authorize(&request)
        return try await transport.send(request, within: limits, reading: "the registration endpoint")
    }

    /// The registration, once its management URI is known to be on the registration endpoint's
    /// origin.
    private func checked(_ registration: ClientRegistration, endpoint: URL) throws -> ClientRegistration {
        guard let uri = registration.registrationClientURI else { return registration }
        guard Self.origin(uri) == Self.origin(endpoint) else {
            throw AuthError(code: .misconfigured, message: "the provider put the registration's management at another origin (\(Self.origin(uri) ?? "none")) than its registration endpoint: refused, its registration access token is not sent there")
        }
        return registration
    }

    private static func origin(_ url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else { return nil }
        return "\(scheme)://\(host):\(url.port ?? (scheme == "https" ? 443 : 80))"
    }

    /// The typed error of a registration endpoint's error answer.
    static func error(from response: AuthResponse, doing what: String) -> AuthError {
        let status = response.status.code
        var oauth = try? JSONDecoder().decode(OAuth2Error.self, from: response.body)
        oauth?.status = status
        if [401, 403, 404].contains(status) || ["invalid_token", "access_denied", "invalid_client"].contains(oauth?.code ?? "") {
            return AuthError(code: .invalidCredentials, message: "\(what) answered \(status)\(oauth.map { " \($0.code)" } ?? ""): the provider does not accept this client or its registration access token (it may have been deleted); register again", status: status, underlying: oauth)
        }
        guard let oauth else {
            return AuthError(code: .httpStatus, message: "\(what) answered \(status) without an OAuth 2.0 error body", status: status)
        }
        return AuthError(code: .misconfigured, message: "\(what) was refused (\(oauth.code)): check the client metadata", status: status, underlying: oauth)
    }
}
