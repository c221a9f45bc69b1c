// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
public import Foundation
import HTTPTypes

/// Signs the JWT a client authenticates with instead of a secret (RFC 7523 §2.2,
/// `private_key_jwt`); AuthOAuth2's `PrivateKeyJWT` is one.
public protocol ClientAssertionSigner: Sendable {
    /// A fresh assertion for `clientID`, addressed to the endpoint at `audience`.
    func assertion(clientID: String, audience: URL) async throws -> String
}

/// Binds requests to an authorization server's endpoints to a key the client holds (DPoP,
/// RFC 9449; AuthOAuth2's `DPoP` is one), and answers the server's challenges for it.
public protocol TokenRequestBinding: Sendable {
    /// Adds what binds `request` to the key (a fresh DPoP proof).
    func bind(_ request: inout AuthRequest) async throws
    /// Reads the server's answer to a bound request; true when the request should be bound anew
    /// and sent once more (a `use_dpop_nonce` challenge that came with a nonce).
    func shouldRetry(_ response: AuthResponse, for request: AuthRequest) -> Bool
    /// The `token_type` a token obtained this way must have (`DPoP`); a server that answers
    /// with another (a plain bearer token) is refused rather than its token sent unbound.
    var boundTokenType: String? { get }
}

extension TokenRequestBinding {
    /// None.
    public var boundTokenType: String? { nil }
}

/// How an OAuth 2.0 client authenticates to the authorization server's endpoints (RFC 6749
/// §2.3, RFC 7523 §2.2). A secret is held as a `Secret`: descriptions never show it.
///
/// The methods' names as a provider knows them (`token_endpoint_auth_method`) are
/// ``methodName``'s.
public enum OAuth2ClientAuthentication: Sendable {
    /// HTTP Basic with the client id and secret, each percent-encoded first (RFC 6749 §2.3.1), a
    /// space as `%20`: the `+` of form encoding is read back as a `+` by servers that decode
    /// with percent-decoding only (Authlib), and `%20` is a space to every decoder.
    case clientSecretBasic(secret: Secret)
    /// `client_id` and `client_secret` in the form body.
    case clientSecretPost(secret: Secret)
    /// A public client: `client_id` in the form body only.
    case none
    /// `private_key_jwt`: a JWT the client signs with its private key, fresh for each request.
    case privateKeyJWT(any ClientAssertionSigner)
    /// `tls_client_auth` (RFC 8705 §2.1): the client proves itself with a client certificate
    /// from a CA the server trusts, presented in the TLS handshake; `client_id` in the form body.
    /// The transport presents the certificate: give AuthHTTPClient's `HTTPClientTransport` a
    /// `TLSClientIdentity` for the token endpoint's origin (`TransportTLS`).
    case tlsClientAuth
    /// `self_signed_tls_client_auth` (RFC 8705 §2.2): as ``tlsClientAuth``, with a self-signed
    /// certificate the server knows from the client's registration (its JWKS).
    case selfSignedTLSClientAuth
    /// `client_secret_jwt` (RFC 7523 §2.2): a JWT MACed with HS256 over the client secret, fresh
    /// for each request (see ``ClientSecretJWT``); the secret itself is never sent.
    case clientSecretJWT(secret: Secret)

    /// The method's name in registration and metadata (`token_endpoint_auth_method`, RFC 7591
    /// §2): `client_secret_basic`, `client_secret_post`, `none`, `private_key_jwt`,
    /// `client_secret_jwt`, `tls_client_auth`, `self_signed_tls_client_auth`.
    public var methodName: String {
        switch self {
        case .clientSecretBasic: "client_secret_basic"
        case .clientSecretPost: "client_secret_post"
        case .none: "none"
        case .privateKeyJWT: "private_key_jwt"
        case .clientSecretJWT: "client_secret_jwt"
        case .tlsClientAuth: "tls_client_auth"
        case .selfSignedTLSClientAuth: "self_signed_tls_client_auth"
        }
    }

    /// `value` form-encoded with a space as `%20` (every `+` form encoding writes is a space: a
    /// `+` of the value is written `%2B`).
    static func basicEncoded(_ value: String) -> String {
        FormURLEncoding.encode(value).replacingOccurrences(of: "+", with: "%20")
    }

    /// The `client_assertion_type` of RFC 7523 §2.2.
    public static let jwtBearerAssertionType = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"

    /// Puts the client's authentication on a form request to one of the server's endpoints.
    /// - Parameters:
    ///   - request: The request; a Basic `Authorization` field is set on it.
    ///   - form: The form parameters; `client_id` (and `client_secret`) are added to it.
    ///   - clientID: The client id.
    ///   - endpoint: The endpoint the request goes to (an assertion's audience).
    public func apply(to request: inout AuthRequest, form: inout [(String, String)], clientID: String, endpoint: URL) async throws {
        switch self {
        case .clientSecretBasic(let secret):
            let pair = "\(Self.basicEncoded(clientID)):\(Self.basicEncoded(secret.reveal))"
            request.head.headerFields[.authorization] = "Basic " + Data(pair.utf8).base64EncodedString()
        case .clientSecretPost(let secret):
            form += [("client_id", clientID), ("client_secret", secret.reveal)]
        case .none, .tlsClientAuth, .selfSignedTLSClientAuth:
            form.append(("client_id", clientID))
        case .privateKeyJWT(let signer):
            let assertion = try await signer.assertion(clientID: clientID, audience: endpoint)
            form += [("client_id", clientID), ("client_assertion_type", Self.jwtBearerAssertionType), ("client_assertion", assertion)]
        case .clientSecretJWT(let secret):
            let assertion = try await ClientSecretJWT(secret: secret).assertion(clientID: clientID, audience: endpoint)
            form += [("client_id", clientID), ("client_assertion_type", Self.jwtBearerAssertionType), ("client_assertion", assertion)]
        }
    }
}

/// An authorization server's endpoints as one client calls them: a form `POST` with the client's
/// authentication, answered with JSON (RFC 6749 §3.2, and the revocation and introspection
/// endpoints that follow the same rules).
///
/// Errors follow RFC 6749 §5.2: `invalid_grant` is `ErrorCode/reauthenticationRequired`
/// (the grant is dead: sign in again); `invalid_client`, `unauthorized_client`,
/// `unsupported_grant_type` and `invalid_scope` are `AuthError.Code.misconfigured`; anything
/// else is `ErrorCode/renewalFailed`. Each carries the ``OAuth2Error`` as its underlying
/// error.
///
/// ```swift
/// let endpoint = OAuth2TokenEndpoint(url: tokenURL, clientID: "svc", authentication: .clientSecretBasic(secret: Secret(clientSecret)), transport: transport)
/// let tokens = try await endpoint.requestTokens([("grant_type", "client_credentials"), ("scope", "read")])
/// ```
public struct OAuth2TokenEndpoint: Sendable {
    /// The token endpoint.
    public let url: URL
    /// The client id.
    public let clientID: String
    /// How the client authenticates.
    public let authentication: OAuth2ClientAuthentication
    /// Binds each request to the client's key (DPoP), when set.
    public let binding: (any TokenRequestBinding)?
    /// The bounds of each answer: deadline, size, how long a `Retry-After` is waited for.
    public let limits: AnswerLimits
    private let transport: any Transport
    private let clock: any AuthClock

    /// Creates the endpoint.
    /// - Parameters:
    ///   - url: The token endpoint.
    ///   - clientID: The client's identifier.
    ///   - authentication: How the client authenticates.
    ///   - transport: Sends the requests. Pass the plain transport, not an authenticated client,
    ///     so that they do not go through the authentication middleware.
    ///   - clock: Gives the issue time when a response has no `Date` field: when the request was
    ///     sent, which is no later than the server issued the tokens.
    ///   - binding: Binds each request to the client's key (DPoP).
    ///   - limits: The bounds of each answer; the defaults suit any real server.
    public init(url: URL, clientID: String, authentication: OAuth2ClientAuthentication = .none, transport: any Transport, clock: any AuthClock = SystemClock(), binding: (any TokenRequestBinding)? = nil, limits: AnswerLimits = AnswerLimits()) {
        self.limits = limits
        self.url = url
        self.clientID = clientID
        self.authentication = authentication
        self.binding = binding
        self.transport = transport
        self.clock = clock
    }

    /// Asks the token endpoint for tokens with the grant `parameters` describe.
    /// - Parameters:
    ///   - parameters: The grant's form parameters (`grant_type` and the rest).
    ///   - previous: The token set a refresh renews: what the response leaves out (the refresh
    ///     token, the scope, the ID token) is kept from it (see
    ///     ``/AuthCore/TokenResponse/tokenSet(issuedAt:renewing:requestedScope:)``).
    /// - Returns: The tokens, their expiry computed from the response's `Date` field; their scope
    ///   the `scope` parameter's when the response names none.
    public func requestTokens(_ parameters: [(String, String)], renewing previous: BearerTokenSet? = nil) async throws -> BearerTokenSet {
        // Without a `Date` field, the tokens count as issued when the request was sent: a slow
        // response then shortens their lifetime here rather than lengthening it.
        let sent = clock.now()
        let response = try await post(parameters, to: url)
        let issued = TokenResponse.issuedAt(response, sent: sent, received: clock.now())
        guard (200..<300).contains(response.status.code), !Self.isErrorAnswer(response) else { throw Self.error(from: response) }
        let tokens = try TokenResponse.parse(response.body).tokenSet(issuedAt: issued, renewing: previous, requestedScope: parameters.last { $0.0 == "scope" }?.1)
        try Self.checkTokenType(tokens.tokenType, expected: binding?.boundTokenType)
        return tokens
    }

    /// Whether a success status carries an OAuth 2.0 error instead of the answer: an `error`
    /// field and no `field` (the answer's own: `access_token` from the token endpoint,
    /// `device_code`, `request_uri`). GitHub answers its device flow's `authorization_pending`
    /// that way, with 200 (Go's oauth2 reads such answers as errors too); read as tokens, they
    /// failed with `.decoding` and stopped a device sign-in at its first poll.
    static func isErrorAnswer(_ response: AuthResponse, expecting field: String = "access_token") -> Bool {
        guard let object = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any] else { return false }
        return object["error"] is String && object[field] == nil
    }

    /// Accepts the issued `token_type` only when the client knows how to use it (RFC 6749 §7.1):
    /// `Bearer` (in any case) without a binding, the binding's type (`DPoP`) with one. A `DPoP`
    /// token used as a bearer token would go out without its proof; an unknown type, not at all.
    static func checkTokenType(_ issued: String, expected bound: String?) throws {
        let expected = bound ?? "Bearer"
        guard issued.lowercased() != expected.lowercased() else { return }
        let shown = String(issued.prefix(40).filter { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        if bound != nil {
            throw AuthError(code: .misconfigured, message: "a \(expected)-bound token was asked for, but the server issued a \(shown) token; it is not used unbound")
        }
        throw AuthError(code: .misconfigured, message: "the server issued a \(shown) token, which this client was not configured to use; only Bearer tokens are used without a binding (configure DPoP for DPoP tokens)")
    }

    /// Posts a form with the client's authentication to `endpoint` (the token endpoint, or the
    /// revocation or introspection endpoint of the same server) and returns the answer as it is,
    /// within ``limits``.
    ///
    /// With a ``binding``, a challenge for a nonce is answered once: the request is built anew
    /// (a fresh client assertion, a fresh proof with the nonce) and sent again. A `429` or `503`
    /// whose `Retry-After` is within `AnswerLimits/maxRetryAfterWait` is waited for and tried
    /// once more; a longer one is surfaced on the error (`AuthError/retryAfter`).
    public func post(_ parameters: [(String, String)], to endpoint: URL) async throws -> AuthResponse {
        let response = try await postAnswering(parameters, to: endpoint)
        guard let wait = Self.retryAfter(response), wait <= min(limits.maxRetryAfterWait, limits.deadline) else { return response }
        try await clock.sleep(for: wait)
        return try await postAnswering(parameters, to: endpoint)
    }

    /// One post, and its retry for a binding's nonce challenge.
    private func postAnswering(_ parameters: [(String, String)], to endpoint: URL) async throws -> AuthResponse {
        let (request, response) = try await send(parameters, to: endpoint)
        guard let binding, binding.shouldRetry(response, for: request) else { return response }
        let again = try await send(parameters, to: endpoint)
        _ = binding.shouldRetry(again.response, for: again.request)  // keeps a nonce rotated with this answer
        return again.response
    }

    private func send(_ parameters: [(String, String)], to endpoint: URL) async throws -> (request: AuthRequest, response: AuthResponse) {
        var form = parameters
        var request = try AuthRequest(method: .post, url: endpoint)
        request.head.headerFields[.contentType] = "application/x-www-form-urlencoded"
        request.head.headerFields[.accept] = "application/json"
        try await authentication.apply(to: &request, form: &form, clientID: clientID, endpoint: endpoint)
        request.body = FormURLEncoding.body(form)
        try await binding?.bind(&request)
        return (request, try await transport.send(request, within: limits, reading: "the token endpoint"))
    }

    /// The `Retry-After` of a `429` or `503`, when it has one.
    static func retryAfter(_ response: AuthResponse) -> Duration? {
        guard response.status.code == 429 || response.status.code == 503,
              let value = response.head.headerFields[.retryAfter], let seconds = RetryAfter.seconds(value, now: Date()) else { return nil }
        return .clamped(seconds: seconds, to: .seconds(RetryAfter.maximumSeconds))
    }

    /// RFC 6749 §5.2 errors that say the client, not the grant, is wrong.
    static let configurationErrors: Set<String> = ["invalid_client", "unauthorized_client", "unsupported_grant_type", "invalid_scope"]

    /// The typed error for an endpoint's error answer. A `429` or `503` with `Retry-After` is
    /// always one to try again later (`.renewalFailed` with ``/AuthCore/AuthError/retryAfter``),
    /// and keeps the answer's OAuth 2.0 error, if any, as its underlying error (a `slow_down`).
    public static func error(from response: AuthResponse) -> AuthError {
        let status = response.status.code
        var oauth = try? JSONDecoder().decode(OAuth2Error.self, from: response.body)
        oauth?.status = status
        if let wait = retryAfter(response) {
            let said = oauth.map { " \($0.code)" } ?? ""
            return AuthError(code: .renewalFailed, message: "the token endpoint answered \(status)\(said) and asks to try again after \(wait)", status: status, underlying: oauth, retryAfter: wait)
        }
        guard let oauth else {
            return AuthError(code: .renewalFailed, message: "the token endpoint answered \(status) without an OAuth 2.0 error body", status: status)
        }
        if oauth.code == "invalid_grant" {
            return AuthError.reauthenticationRequired(nil, reason: "the server rejected the grant (invalid_grant)", underlying: oauth)
        }
        if configurationErrors.contains(oauth.code) {
            return AuthError(code: .misconfigured, message: "the token endpoint rejected the client configuration (\(oauth.code)): check the client id, its secret or key, its allowed grants and scopes", status: status, underlying: oauth)
        }
        return AuthError(code: .renewalFailed, message: "the token endpoint answered \(status) \(oauth.code)", status: status, underlying: oauth)
    }
}
