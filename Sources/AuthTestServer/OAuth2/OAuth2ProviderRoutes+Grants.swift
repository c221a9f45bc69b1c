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

extension OAuth2ProviderRoutes {
    /// `GET /oauth2/authorize`: checks the request, then the scripted user's answer as a redirect.
    func authorize(_ request: Request, environment: RouteEnvironment) -> Response {
        let query = Self.formValues(request.uri.query ?? "")
        let value = { (name: String) in query[name] }
        guard value("client_id") == OAuth2TestClients.publicClientID, let redirect = value("redirect_uri"), let url = URLComponents(string: redirect),
              url.scheme == "http", url.host == "127.0.0.1" else {
            // Never redirect to a URI that was not checked (RFC 6749 §4.1.2.1).
            return ServerResponse.error(.badRequest, "invalid_request", description: "unknown client or redirect URI")
        }
        let issuer = Self.issuer(request)
        func back(_ items: [(String, String?)]) -> Response {
            var target = url
            target.queryItems = (url.queryItems ?? []) + (items + [("state", value("state")), ("iss", issuer)]).compactMap { name, value in value.map { URLQueryItem(name: name, value: $0) } }
            target.percentEncodedQuery = target.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
            return ServerResponse.redirect(to: target.string ?? redirect, status: 302)
        }
        guard value("response_type") == "code" else { return back([("error", "unsupported_response_type")]) }
        guard let challenge = value("code_challenge"), value("code_challenge_method") == "S256" else {
            return back([("error", "invalid_request"), ("error_description", "PKCE with S256 is required")])
        }
        guard let scope = Self.scope(value("scope"), client: OAuth2TestClients.publicClientID) else { return back([("error", "invalid_scope")]) }
        if value("login_hint") == "deny" { return back([("error", "access_denied")]) }
        let code = ServerState.randomToken()
        let now = environment.clock.now()
        provider.storage.withLock {
            $0.codes[code] = .init(clientID: OAuth2TestClients.publicClientID, redirectURI: redirect, challenge: challenge, scope: scope, user: value("login_hint") ?? "alice", nonce: value("nonce"), expires: now.addingTimeInterval(60))
        }
        environment.counters.record(.custom("oauth2.authorize"))
        return back([("code", code)])
    }

    /// `POST /oauth2/token`.
    func token(_ form: [String: String], client: String?, request: Request, environment: RouteEnvironment) async throws -> Response {
        guard let client else { return ServerResponse.error(.unauthorized, "invalid_client") }
        let now = environment.clock.now()
        let grantType = form["grant_type"] ?? ""
        // DPoP (RFC 9449 §5): a proof binds the token to its key; without the nonce, a challenge.
        var jkt: String?
        if request.headers[HTTPField.Name("DPoP")!] != nil {
            switch await provider.checkProof(request, method: "POST", url: "\(Self.issuer(request))/oauth2/token", accessToken: nil, now: now) {
            case .valid(let thumbprint): jkt = thumbprint
            case .needsNonce:
                environment.counters.record(.custom("oauth2.dpop.nonceChallenges"))
                return ServerResponse.error(.badRequest, "use_dpop_nonce", headers: [HTTPField.Name("DPoP-Nonce")!: provider.dpopNonce])
            case .invalid(let reason):
                return ServerResponse.error(.badRequest, "invalid_dpop_proof", description: reason)
            }
        }
        let issue = { (client: String, subject: String, scope: String, refresh: Bool) in
            self.issue(client: client, subject: subject, scope: scope, refresh: refresh, grantType: grantType, now: now, environment: environment, jkt: jkt)
        }
        switch (grantType, client) {
        case ("client_credentials", OAuth2TestClients.serviceClientID):
            guard let scope = Self.scope(form["scope"], client: client) else { return ServerResponse.error(.badRequest, "invalid_scope") }
            return ServerResponse.json(.ok, issue(client, client, scope, false))
        case ("authorization_code", OAuth2TestClients.publicClientID):
            let code = provider.storage.withLock { $0.codes.removeValue(forKey: form["code"] ?? "") }
            guard let code, code.expires > now, code.redirectURI == form["redirect_uri"],
                  let verifier = form["code_verifier"], Base64URL.encode(Data(SHA256.hash(data: Data(verifier.utf8)))) == code.challenge else {
                return ServerResponse.error(.badRequest, "invalid_grant", description: "the code is unknown, spent, expired, or its PKCE verifier does not match")
            }
            var response = issue(client, code.user, code.scope, true)
            if code.scope.split(separator: " ").contains("openid") {
                response["id_token"] = .string(try await provider.idToken(issuer: Self.issuer(request), subject: code.user, audience: client, nonce: code.nonce, now: now))
            }
            return ServerResponse.json(.ok, response)
        case ("refresh_token", OAuth2TestClients.publicClientID):
            let old = provider.storage.withLock { storage -> OAuth2ProviderState.Grant? in
                guard let grant = storage.refresh[form["refresh_token"] ?? ""], !grant.revoked else { return nil }
                storage.refresh[form["refresh_token"] ?? ""]?.revoked = true  // rotating: each refresh token once
                return grant
            }
            guard let old else { return ServerResponse.error(.badRequest, "invalid_grant") }
            var response = issue(client, old.subject, old.scope, true)
            let idToken = provider.refreshIDToken.withLock { $0 }
            if idToken.answers, old.scope.split(separator: " ").contains("openid") {
                let minted = idToken.expired ? now.addingTimeInterval(-7_200) : now
                response["id_token"] = .string(try await provider.idToken(issuer: Self.issuer(request), subject: idToken.subject ?? old.subject, audience: client, nonce: nil, now: minted))
            }
            return ServerResponse.json(.ok, response)
        case (Self.deviceGrant, OAuth2TestClients.publicClientID):
            return pollDevice(form["device_code"] ?? "", client: client, now: now, environment: environment, jkt: jkt)
        default:
            return ServerResponse.error(.badRequest, "unauthorized_client", description: "this client may not use \(grantType)")
        }
    }

    /// `POST /oauth2/device_authorization`.
    func deviceAuthorization(_ form: [String: String], request: Request, environment: RouteEnvironment) -> Response {
        guard form["client_id"] == OAuth2TestClients.publicClientID, let scope = Self.scope(form["scope"], client: OAuth2TestClients.publicClientID) else {
            return ServerResponse.error(.badRequest, "invalid_client")
        }
        let deviceCode = ServerState.randomToken()
        let userCode = String(ServerState.randomToken().uppercased().filter(\.isLetter).prefix(8))
        let now = environment.clock.now()
        provider.storage.withLock { $0.devices[deviceCode] = .init(clientID: OAuth2TestClients.publicClientID, userCode: userCode, scope: scope, expires: now.addingTimeInterval(300)) }
        let verification = "\(Self.issuer(request))/oauth2/device"
        let answer = DeviceAnswer(device_code: deviceCode, user_code: userCode, verification_uri: verification, verification_uri_complete: "\(verification)?user_code=\(userCode)", expires_in: 300, interval: provider.deviceInterval)
        guard provider.quirks.verificationURL else { return ServerResponse.json(.ok, answer) }
        // Google's shape: the page named `verification_url`, no complete URI; the numbers as
        // strings, as some providers send them.
        let google: [String: AnyCodable] = [
            "device_code": .string(deviceCode), "user_code": .string(userCode), "verification_url": .string(verification),
            "expires_in": .string("300"), "interval": .string(String(provider.deviceInterval)),
        ]
        return ServerResponse.json(.ok, google)
    }

    private func pollDevice(_ deviceCode: String, client: String, now: Date, environment: RouteEnvironment, jkt: String?) -> Response {
        environment.counters.record(.custom("oauth2.device.polls"))
        let interval = TimeInterval(provider.deviceInterval)
        let outcome = provider.storage.withLock { storage -> Result<OAuth2ProviderState.Device, OAuth2Refusal> in
            guard var device = storage.devices[deviceCode] else { return .failure(OAuth2Refusal(code: "invalid_grant")) }
            defer { storage.devices[deviceCode]?.lastPoll = now }
            if device.expires <= now { return .failure(OAuth2Refusal(code: "expired_token")) }
            if let decision = device.decision {
                storage.devices[deviceCode] = nil
                return decision ? .success(device) : .failure(OAuth2Refusal(code: "access_denied"))
            }
            if let last = device.lastPoll, now.timeIntervalSince(last) < interval - 0.05 {
                device.lastPoll = now
                return .failure(OAuth2Refusal(code: "slow_down"))
            }
            return .failure(OAuth2Refusal(code: "authorization_pending"))
        }
        switch outcome {
        case .success(let device):
            return ServerResponse.json(.ok, issue(client: client, subject: "alice", scope: device.scope, refresh: true, grantType: Self.deviceGrant, now: now, environment: environment, jkt: jkt))
        case .failure(let refusal):
            if refusal.code == "slow_down" { environment.counters.record(.custom("oauth2.device.slowDown")) }
            return ServerResponse.error(provider.quirks.errorsWithOK ? .ok : .badRequest, refusal.code)
        }
    }

    private func issue(client: String, subject: String, scope: String, refresh: Bool, grantType: String, now: Date, environment: RouteEnvironment, jkt: String?) -> [String: AnyCodable] {
        let lifetime = environment.configuration.lifetimes.access
        let access = ServerState.randomToken()
        let refreshToken = refresh ? ServerState.randomToken() : nil
        let grant = OAuth2ProviderState.Grant(clientID: client, subject: subject, scope: scope, expires: now.addingTimeInterval(TimeInterval(lifetime)), jkt: jkt, issued: now)
        provider.storage.withLock { storage in
            storage.access[access] = grant
            if let refreshToken { storage.refresh[refreshToken] = grant }
        }
        environment.counters.record(.custom("oauth2.grant.\(grantType == Self.deviceGrant ? "device_code" : grantType)"))
        var response: [String: AnyCodable] = ["access_token": .string(access), "token_type": .string(jkt == nil ? "Bearer" : "DPoP"), "expires_in": .int(Int(lifetime)), "scope": .string(scope)]
        if let refreshToken { response["refresh_token"] = .string(refreshToken) }
        return response
    }
}

/// An RFC 6749 §5.2 refusal.
struct OAuth2Refusal: Error {
    let code: String
}

/// The device authorization response (RFC 8628 §3.2).
struct DeviceAnswer: Encodable {
    let device_code, user_code, verification_uri, verification_uri_complete: String
    let expires_in, interval: Int
}
