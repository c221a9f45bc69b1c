// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCookie
import AuthCore
import AuthOAuth2
import Foundation
import HTTPTypes
import Synchronization
import Testing

/// The plug-ins of AuthCookie and AuthOAuth2 keep their places whatever order they are added in:
/// cookies run inside DPoP (the `session` phase after `proof`), so a cookie a resource server sets
/// on its DPoP nonce challenge goes with the proof's one retry.
@Suite struct PluginOrderTests {
    /// A resource server in a closure: the first request gets a DPoP nonce challenge that also
    /// sets an affinity cookie; a request that carries the cookie and a proof gets 200.
    final class NonceServer: Sendable {
        let seen = Mutex<[String]>([])

        var transport: ClosureTransport {
            ClosureTransport { request in
                let cookie = request.head.headerFields[.cookie] ?? "-"
                let proof = request.head.headerFields[HTTPField.Name("DPoP")!] == nil ? "no proof" : "proof"
                let count = self.seen.withLock { seen in
                    seen.append("\(cookie), \(proof)")
                    return seen.count
                }
                guard count > 1 else {
                    return AuthResponse(status: .unauthorized, headerFields: [
                        .wwwAuthenticate: #"DPoP error="use_dpop_nonce""#,
                        HTTPField.Name("DPoP-Nonce")!: "nonce-1",
                        .setCookie: "affinity=node-7; Path=/; Secure",
                    ])
                }
                return AuthResponse(status: cookie.contains("affinity=node-7") ? .ok : .forbidden)
            }
        }
    }

    @Test(arguments: [true, false])
    func aCookieSetOnTheNonceChallengeGoesWithTheRetry(cookiesFirst: Bool) async throws {
        let server = NonceServer()
        let container = AuthContainer()
        container.override(TransportKey.self, with: server.transport)
        if cookiesFirst {
            container.useCookies()
            container.useDPoP(DPoPKeyring())
        } else {
            container.useDPoP(DPoPKeyring())
            container.useCookies()
        }
        let account = AccountKey(namespace: "api", account: "alice")
        let client = container.makeClient(for: account, strategy: BearerStrategy(allowedHosts: AllowedHosts(["api.example.com"])) { $0 })
        try await client.signIn(BearerTokenSet(accessToken: "bound-token", expiresAt: Date().addingTimeInterval(3600), tokenType: "DPoP"))

        let response = try await client.send(.get, URL(string: "https://api.example.com/orders")!)

        #expect(response.status == .ok)
        #expect(server.seen.withLock { $0 } == ["-, proof", "affinity=node-7, proof"])
    }
}
