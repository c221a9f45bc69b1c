// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthHTTPClient
import AuthOAuth2
import AuthTesting
import Foundation
import HTTPTypes
import Testing

/// DPoP (RFC 9449) against an independent check of its proofs (`Interop/dpop_server.py`: PyJWT
/// verifies the signature with the proof's own key; the server applies RFC 9449 §4.3, nonces
/// and the token's `jkt` binding) over real HTTP.
@Suite(.enabled(if: InteropPeer.shouldRun, InteropPeer.disabledNote), .timeLimit(.minutes(10)))
struct InteropDPoPTests {
    struct Service {
        let container: AuthContainer
        let client: AccountClient<ClientCredentialsStrategy>
        let keyring: DPoPKeyring
    }

    static func service(_ peer: InteropPeer, transport: HTTPClientTransport) -> Service {
        let base = peer.base
        let metadata = AuthorizationServerMetadata(issuer: URL(string: "http://127.0.0.1:\(base.port!)")!, tokenEndpoint: peer.url("token"))
        let oauth = OAuth2Client(provider: OAuth2Provider(metadata: metadata), clientID: "dpop-svc", transport: transport)
        let keyring = DPoPKeyring()
        let container = AuthContainer()
        container.useHTTPClient(transport)
        container.useDPoP(keyring)
        let strategy = ClientCredentialsStrategy(client: oauth, allowedHosts: AllowedHosts(origin: base), dpop: keyring)
        return Service(container: container, client: container.makeClient(for: strategy.account(), strategy: strategy), keyring: keyring)
    }

    struct Me: Decodable { let client_id: String; let jkt: String }

    @Test func boundTokensAreObtainedAndUsedWithProofsAndEachNonceChallengeIsAnsweredOnce() async throws {
        try await InteropPeer.run("dpop_server.py", accessSeconds: 300) { peer in
            try await HTTPClientTransport.withTransport { transport in
                let service = Self.service(peer, transport: transport)
                let me = try await service.client.json(Me.self, .get, peer.url("api/me"))
                let dpop = try await service.keyring.dpop(for: service.client.account, vault: service.container[CredentialVaultKey.self])
                #expect(me.client_id == "dpop-svc" && me.jkt == dpop.thumbprint)
                var counters = try await peer.counters(transport)
                #expect(counters["tokens"] == 1)
                #expect(counters["token_nonce_challenges"] == 1)
                #expect(counters["resource_nonce_challenges"] == 1)

                let answers = try await concurrently(20) { _ in try await service.client.json(Me.self, .get, peer.url("api/me")).jkt }
                #expect(answers.allSatisfy { $0 == dpop.thumbprint })
                counters = try await peer.counters(transport)
                #expect(counters["tokens"] == 1 && counters["resource_nonce_challenges"] == 1 && counters["rejected_proofs"] == 0)

                // The server changes its nonces: one more challenge each, answered.
                _ = try await transport.send(AuthRequest(method: .post, url: peer.url("_rotate_nonces")))
                #expect(try await service.client.json(Me.self, .get, peer.url("api/me")).jkt == dpop.thumbprint)
                #expect(try await peer.counters(transport)["resource_nonce_challenges"] == 2)

                // The key stays with the account, in the vault.
                let stored = try await service.container[CredentialVaultKey.self].load(DPoPKey.self, for: service.client.account, item: DPoPKey.item)
                #expect(stored.map { "\($0)" } == "DPoPKey(P-256)")
            }
        }
    }

    @Test func aReplayedProofAndATokenWithoutItsKeyAreRefused() async throws {
        try await InteropPeer.run("dpop_server.py", accessSeconds: 300) { peer in
            try await HTTPClientTransport.withTransport { transport in
                let service = Self.service(peer, transport: transport)
                _ = try await service.client.send(.get, peer.url("api/me"))
                let tokens = try #require(try await service.container[CredentialVaultKey.self].load(BearerTokenSet.self, for: service.client.account))
                #expect(tokens.tokenType == "DPoP")
                let dpop = try await service.keyring.dpop(for: service.client.account, vault: service.container[CredentialVaultKey.self])
                let me = peer.url("api/me")
                let proof = try await dpop.proof(method: "GET", url: me, accessToken: tokens.accessToken.reveal)
                let request = try AuthRequest(method: .get, url: me, headerFields: [.authorization: "DPoP \(tokens.accessToken.reveal)", DPoP.field: proof])
                #expect(try await transport.send(request).status.code == 200)
                #expect(try await transport.send(request).status.code == 401)  // the same proof again
                #expect(try await peer.counters(transport)["replayed_proofs"] == 1)

                // The token copied to another key's proof, or sent as a bearer token.
                let thief = try await DPoP(key: DPoPKey())
                let stolen = try AuthRequest(method: .get, url: me, headerFields: [.authorization: "DPoP \(tokens.accessToken.reveal)", DPoP.field: try await thief.proof(method: "GET", url: me, accessToken: tokens.accessToken.reveal)])
                _ = thief.shouldRetry(try await transport.send(stolen), for: stolen)  // learns the nonce
                let again = try AuthRequest(method: .get, url: me, headerFields: [.authorization: "DPoP \(tokens.accessToken.reveal)", DPoP.field: try await thief.proof(method: "GET", url: me, accessToken: tokens.accessToken.reveal)])
                #expect(try await transport.send(again).status.code == 401)
                #expect(try await peer.counters(transport)["rejected_bindings"] == 1)
                let bearer = try AuthRequest(method: .get, url: me, headerFields: [.authorization: "Bearer \(tokens.accessToken.reveal)"])
                #expect(try await transport.send(bearer).status.code == 401)
            }
        }
    }
}
