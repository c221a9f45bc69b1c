// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthOAuth2
import AuthTestServer
import Foundation

extension Story {
    /// A service's own token from the client credentials grant: one token request for a burst,
    /// one more after its expiry.
    func clientCredentialsStep() async {
        await report.step("A service obtains its token with OAuth 2.0 client credentials, once per expiry") {
            let provider = OAuth2Provider(issuer: base, transport: transport)
            let client = OAuth2Client(provider: provider, clientID: OAuth2TestClients.serviceClientID, authentication: .clientSecretBasic(secret: Secret(OAuth2TestClients.serviceSecret)), transport: transport)
            let strategy = ClientCredentialsStrategy(client: client, scopes: ["read"], allowedHosts: hosts)
            let service = container.makeClient(for: strategy.account(), strategy: strategy)
            let me = base.appending(path: "oauth2/me")
            let before = server.counters.count("oauth2.grant.client_credentials")
            for round in 0..<2 {
                if round == 1 { server.clock.advance(by: 301) }
                let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                    for _ in 0..<burst { group.addTask { try await service.send(.get, me).status.code } }
                    return try await group.reduce(into: [Int]()) { $0.append($1) }
                }
                try check(statuses.allSatisfy { $0 == 200 }, "round \(round): statuses \(Set(statuses))")
            }
            let grants = server.counters.count("oauth2.grant.client_credentials") - before
            try check(grants == 2, "the provider issued \(grants) tokens, expected one per expiry")
            return "\(burst * 2) requests across an expiry; the provider issued \(grants) tokens (one per expiry)"
        }
    }

    /// The device grant, the user approving "on another device" after the first poll.
    func deviceSignInStep() async {
        await report.step("A device signs in with the OAuth 2.0 device grant") {
            let app = OAuth2Client(provider: OAuth2Provider(issuer: base, transport: transport), clientID: OAuth2TestClients.publicClientID, transport: transport)
            let device = try await app.startDeviceAuthorization(scopes: ["read"])
            let server = self.server
            let tokens = try await app.pollDeviceAuthorization(device) { _ in server.oauth2.decideDevice(userCode: device.userCode, approve: true) }
            let account = container.makeClient(for: AccountKey(namespace: "demo-oauth2", account: "tv"), strategy: BearerStrategy(allowedHosts: hosts, refresher: app))
            try await account.signIn(tokens)
            let status = try await account.send(.get, base.appending(path: "oauth2/me")).status.code
            try check(status == 200, "the provider's resource answered \(status)")
            return "code \(device.userCode) at \(device.verificationURI.path) approved; the device's tokens are stored and work"
        }
    }
}
