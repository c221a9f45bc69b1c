// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Crypto
import Foundation
import Synchronization
import HTTPTypes
import Hummingbird

/// A standards-conforming OAuth 2.0 / OpenID Connect provider, for AuthOAuth2 and the demo:
///
/// - `GET /.well-known/oauth-authorization-server` (and `/.well-known/openid-configuration`):
///   RFC 8414 metadata, the issuer being `http://<Host>`;
/// - `GET /oauth2/authorize`: the authorization code grant with PKCE S256 required, `state`
///   passed back, RFC 9207 `iss`; the user (`login_hint`, default `alice`) consents at once,
///   `login_hint=deny` refuses; an ES256 ID token with the nonce for `scope=openid`;
/// - `POST /oauth2/token`: authorization_code, refresh_token (rotating: a used one is refused),
///   client_credentials (``OAuth2TestClients/serviceClientID``, Basic or form secret), and the
///   device grant (`authorization_pending`, `slow_down` when polled faster than the interval,
///   `access_denied`, `expired_token`);
/// - `POST /oauth2/device_authorization`; the user answers with
///   ``OAuth2ProviderState/decideDevice(userCode:approve:)`` or `POST /oauth2/device/decide`;
/// - `POST /oauth2/revoke` (RFC 7009), `POST /oauth2/introspect` (RFC 7662, for the service
///   client), `GET /oauth2/jwks`, and `GET /oauth2/me`, a resource that names the token's
///   subject, client and scope;
/// - DPoP (RFC 9449) at the token endpoint and `/oauth2/me`: a token asked for with a proof is
///   bound to its key (`token_type: DPoP`); proofs must carry the provider's nonce
///   (``OAuth2ProviderState/rotateDPoPNonce()``), and a replayed one is refused.
///
/// Counted: `oauth2.grant.<grant_type>`, `oauth2.revoked`, `oauth2.introspections`,
/// `oauth2.device.polls`, `oauth2.device.slowDown`, `oauth2.dpop.nonceChallenges`,
/// `oauth2.dpop.rejected`, `oauth2.rejected`.
struct OAuth2ProviderRoutes: RouteGroup {
    let provider: OAuth2ProviderState

    func addRoutes(to router: Router<BasicRequestContext>, environment: RouteEnvironment) {
        for path in ["/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"] {
            router.get(RouterPath(path)) { request, _ in ServerResponse.json(.ok, Self.metadata(Self.issuer(request))) }
        }
        router.get("/oauth2/jwks") { _, _ in ServerResponse.raw(.ok, body: provider.jwks(), contentType: "application/json") }
        router.get("/oauth2/authorize") { request, _ in authorize(request, environment: environment) }
        router.post("/oauth2/token") { request, _ in
            let form = try await Self.form(request)
            return try await token(form, client: Self.client(request, form: form), request: request, environment: environment)
        }
        router.post("/oauth2/device_authorization") { request, _ in
            let form = try await Self.form(request)
            return deviceAuthorization(form, request: request, environment: environment)
        }
        router.post("/oauth2/device/decide") { request, _ in
            let form = try await Self.form(request)
            let found = provider.decideDevice(userCode: form["user_code"] ?? "", approve: form["decision"] == "approve")
            return ServerResponse.json(found ? .ok : .notFound, ["decided": found])
        }
        router.post("/oauth2/revoke") { request, _ in
            let form = try await Self.form(request)
            let token = form["token"] ?? ""
            provider.storage.withLock { storage in
                storage.access[token]?.revoked = true
                storage.refresh[token]?.revoked = true
            }
            environment.counters.record(.custom("oauth2.revoked"))
            return ServerResponse.json(.ok, [String: String]())
        }
        router.get("/oauth2/me") { request, _ in try await me(request, environment: environment) }
        router.post("/oauth2/introspect") { request, _ in
            let form = try await Self.form(request)
            guard Self.client(request, form: form) == OAuth2TestClients.serviceClientID else { return ServerResponse.error(.unauthorized, "invalid_client") }
            let now = environment.clock.now()
            let token = form["token"] ?? ""
            let grant = provider.storage.withLock { $0.access[token] ?? $0.refresh[token] }
            environment.counters.record(.custom("oauth2.introspections"))
            guard let grant, !grant.revoked, grant.expires > now else { return ServerResponse.json(.ok, ["active": AnyCodable.bool(false)]) }
            return ServerResponse.json(.ok, [
                "active": AnyCodable.bool(true), "scope": .string(grant.scope), "client_id": .string(grant.clientID), "sub": .string(grant.subject),
                "token_type": .string(grant.jkt == nil ? "Bearer" : "DPoP"), "exp": .int(Int(grant.expires.timeIntervalSince1970)), "iat": .int(Int(grant.issued.timeIntervalSince1970)),
                "iss": .string(Self.issuer(request)),
            ])
        }
    }

    /// `GET /oauth2/me`: a bearer token, or a DPoP-bound one with a proof of its key.
    func me(_ request: Request, environment: RouteEnvironment) async throws -> Response {
        let now = environment.clock.now()
        let (scheme, token) = request.headers[.authorization].map { value -> (String, String) in
            let parts = value.split(separator: " ", maxSplits: 1)
            return (parts.first.map(String.init) ?? "", parts.count == 2 ? String(parts[1]) : "")
        } ?? ("", "")
        guard let grant = provider.storage.withLock({ $0.access[token] }), !grant.revoked, grant.expires > now,
              scheme == (grant.jkt == nil ? "Bearer" : "DPoP") else {
            environment.counters.record(.custom("oauth2.rejected"))
            // A token sent under the DPoP scheme is refused under it (RFC 9449 §7.1).
            let challenge = scheme.lowercased() == "dpop" ? #"DPoP error="invalid_token", algs="ES256""# : #"Bearer error="invalid_token""#
            return ServerResponse.error(.unauthorized, "invalid_token", headers: [.wwwAuthenticate: challenge])
        }
        if let bound = grant.jkt {
            switch await provider.checkProof(request, method: "GET", url: "\(Self.issuer(request))/oauth2/me", accessToken: token, now: now) {
            case .valid(let thumbprint) where thumbprint == bound: break
            case .needsNonce:
                environment.counters.record(.custom("oauth2.dpop.nonceChallenges"))
                return ServerResponse.error(.unauthorized, "use_dpop_nonce", headers: [.wwwAuthenticate: #"DPoP error="use_dpop_nonce""#, HTTPField.Name("DPoP-Nonce")!: provider.dpopNonce])
            default:
                environment.counters.record(.custom("oauth2.dpop.rejected"))
                return ServerResponse.error(.unauthorized, "invalid_dpop_proof", headers: [.wwwAuthenticate: #"DPoP error="invalid_dpop_proof""#])
            }
        }
        return ServerResponse.json(.ok, ["sub": grant.subject, "client_id": grant.clientID, "scope": grant.scope])
    }

    static func issuer(_ request: Request) -> String {
        "http://\(request.head.authority ?? "127.0.0.1")"
    }

    static func metadata(_ issuer: String) -> [String: AnyCodable] {
        [
            "issuer": .string(issuer), "authorization_endpoint": .string("\(issuer)/oauth2/authorize"),
            "token_endpoint": .string("\(issuer)/oauth2/token"), "revocation_endpoint": .string("\(issuer)/oauth2/revoke"),
            "device_authorization_endpoint": .string("\(issuer)/oauth2/device_authorization"), "jwks_uri": .string("\(issuer)/oauth2/jwks"),
            "introspection_endpoint": .string("\(issuer)/oauth2/introspect"), "dpop_signing_alg_values_supported": .strings(["ES256"]),
            "grant_types_supported": .strings(["authorization_code", "refresh_token", "client_credentials", Self.deviceGrant]),
            "token_endpoint_auth_methods_supported": .strings(["none", "client_secret_basic", "client_secret_post"]),
            "code_challenge_methods_supported": .strings(["S256"]), "authorization_response_iss_parameter_supported": .bool(true),
            "scopes_supported": .strings(["openid", "profile", "read", "write"]),
        ]
    }

    static let deviceGrant = "urn:ietf:params:oauth:grant-type:device_code"

    /// The form parameters of a request body (the first of a repeated name).
    static func form(_ request: Request) async throws -> [String: String] {
        formValues(String(decoding: try await request.collectData(upTo: 64 << 10), as: UTF8.self))
    }

    /// The parameters of a form-encoded text (a body or a query), `+` read as a space.
    static func formValues(_ text: String) -> [String: String] {
        var values: [String: String] = [:]
        for item in FormURLEncoding.items(text) {
            let name = FormURLEncoding.decode(item.name) ?? ""
            if values[name] == nil { values[name] = item.value.map { FormURLEncoding.decode($0) ?? "" } ?? "" }
        }
        return values
    }

    /// The authenticated client: Basic or form secret for the service, `client_id` for the public client.
    static func client(_ request: Request, form: [String: String]) -> String? {
        if let basic = request.headers[.authorization], basic.hasPrefix("Basic "), let data = Data(base64Encoded: String(basic.dropFirst(6))) {
            let pair = String(decoding: data, as: UTF8.self).split(separator: ":", maxSplits: 1).map { FormURLEncoding.decode($0) ?? "" }
            return pair.count == 2 && pair[0] == OAuth2TestClients.serviceClientID && pair[1] == OAuth2TestClients.serviceSecret ? pair[0] : nil
        }
        switch form["client_id"] {
        case OAuth2TestClients.serviceClientID?: return form["client_secret"] == OAuth2TestClients.serviceSecret ? OAuth2TestClients.serviceClientID : nil
        case OAuth2TestClients.publicClientID?: return form["client_secret"] == nil ? OAuth2TestClients.publicClientID : nil
        default: return nil
        }
    }

    /// The scopes of `requested` the client may have, or nil when it asks for another.
    static func scope(_ requested: String?, client: String) -> String? {
        let asked = (requested ?? "").split(separator: " ").map(String.init)
        guard let allowed = OAuth2TestClients.scopes[client], asked.allSatisfy(allowed.contains) else { return nil }
        return asked.joined(separator: " ")
    }
}

/// A JSON value of the metadata document or a token response.
enum AnyCodable: Encodable {
    case string(String), strings([String]), bool(Bool), int(Int)

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .strings(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        }
    }
}
