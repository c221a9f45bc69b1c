// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AsyncHTTPClient
import AuthCore
import AuthHTTPClient
import AuthOAuth2
import Foundation
import NIOSSL
import Testing

/// Mutual TLS (RFC 8705) on `HTTPClientTransport`: client certificates per origin, token endpoint
/// authentication by certificate (`tls_client_auth`, `self_signed_tls_client_auth`) and
/// certificate-bound tokens, against Hummingbird with TLS and Python's `ssl` module.
@Suite(.timeLimit(.minutes(10)))
struct MutualTLSTests {
    let pki: TLSTestPKI
    let server: TLSTestPKI.Issued

    init() throws {
        pki = try TLSTestPKI()
        server = try pki.server()
    }

    /// Runs `body` with a transport that trusts the test CA and presents `identities`.
    @discardableResult
    func withTransport<T>(_ identities: [URL: TLSTestPKI.Issued] = [:], _ body: (HTTPClientTransport) async throws -> T) async throws -> T {
        var configuration = HTTPClientTransport.defaultConfiguration
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMBytes(Array(try pki.caPEM.utf8)))
        configuration.tlsConfiguration = tls
        var byOrigin: [Origin: TLSClientIdentity] = [:]
        for (url, issued) in identities {
            byOrigin[Origin(scheme: "https", host: url.host!, port: url.port)] = try TLSClientIdentity(certificateChainPEM: issued.certificatePEM, privateKeyPEM: issued.keyPEM)
        }
        return try await HTTPClientTransport.withTransport(configuration: configuration, tls: try TransportTLS(clientIdentities: byOrigin), body)
    }

    @Test func aServerThatRequiresAClientCertificateAcceptsAuthKitsAndRefusesWithout() async throws {
        let client = try pki.client("svc")
        try await TLSTestServer.withRunning(certificatePEM: server.certificatePEM, keyPEM: server.keyPEM, clientCA: try pki.caPEM) { server in
            let hello = server.base.appending(path: "hello")
            try await withTransport([server.base: client]) { presenting in
                let status = try await presenting.send(AuthRequest(method: .get, url: hello)).status.code
                #expect(status == 200)
            }
            #expect(server.requests == 1)

            // No certificate, or one for another origin only: the handshake fails.
            let elsewhere = URL(string: "https://127.0.0.1:1")!
            let cases: [[URL: TLSTestPKI.Issued]] = [[:], [elsewhere: client]]
            for identities in cases {
                try await withTransport(identities) { bare in
                    _ = await #expect(throws: (any Error).self) { try await bare.send(AuthRequest(method: .get, url: hello)) }
                }
            }
            #expect(server.requests == 1)
        }
    }

    @Test func aCertificateIssuedByAnotherCAIsRefused() async throws {
        let stranger = try TLSTestPKI(name: "Another CA").client("svc")
        try await TLSTestServer.withRunning(certificatePEM: server.certificatePEM, keyPEM: server.keyPEM, clientCA: try pki.caPEM) { server in
            try await withTransport([server.base: stranger]) { transport in
                _ = await #expect(throws: (any Error).self) { try await transport.send(AuthRequest(method: .get, url: server.base.appending(path: "hello"))) }
            }
            #expect(server.requests == 0)
        }
    }

    struct Me: Decodable, Equatable {
        let sub: String
        let thumbprint: String?
        enum CodingKeys: String, CodingKey {
            case sub
            case thumbprint = "x5t#S256"
        }
    }

    /// A client-credentials client of `peer` that authenticates with `authentication`.
    static func service(_ peer: TLSPeer, transport: HTTPClientTransport, clientID: String, authentication: OAuth2ClientAuthentication) -> AccountClient<ClientCredentialsStrategy> {
        let metadata = AuthorizationServerMetadata(issuer: peer.base, tokenEndpoint: peer.url("token"))
        let oauth = OAuth2Client(provider: OAuth2Provider(metadata: metadata), clientID: clientID, authentication: authentication, transport: transport)
        let container = AuthContainer()
        container.useHTTPClient(transport)
        let strategy = ClientCredentialsStrategy(client: oauth, allowedHosts: AllowedHosts(origin: peer.base))
        return container.makeClient(for: strategy.account(), strategy: strategy)
    }

    @Test(.enabled(if: InteropPeer.shouldRun, InteropPeer.disabledNote))
    func tlsClientAuthObtainsABoundTokenThatIsUsedOverTheSameCertificate() async throws {
        let certificate = try pki.client("billing")
        try await TLSPeer.run(serving: server, pki: pki) { peer in
            try await withTransport([peer.base: certificate]) { transport in
                let service = Self.service(peer, transport: transport, clientID: "billing", authentication: .tlsClientAuth)
                let me = try await service.json(Me.self, .get, peer.url("api/me"))
                #expect(me == Me(sub: "billing", thumbprint: certificate.thumbprint))
            }
            let counters = try await peer.counters()
            #expect(counters["tls_client_auth"] == 1 && counters["resource_requests"] == 1 && counters["binding_mismatch"] == 0)
        }
    }

    /// Also for a certificate whose thumbprint begins with `-` (1 in 64): the peer took it for
    /// an option and did not start.
    @Test(.enabled(if: InteropPeer.shouldRun, InteropPeer.disabledNote), arguments: [false, true])
    func selfSignedTLSClientAuthObtainsABoundToken(thumbprintBeginsWithADash: Bool) async throws {
        var certificate = try TLSTestPKI.selfSignedClient("robot")
        while thumbprintBeginsWithADash, !certificate.thumbprint.hasPrefix("-") { certificate = try TLSTestPKI.selfSignedClient("robot") }
        try await TLSPeer.run(serving: server, pki: pki, selfSigned: [certificate]) { peer in
            try await withTransport([peer.base: certificate]) { transport in
                let service = Self.service(peer, transport: transport, clientID: "robot", authentication: .selfSignedTLSClientAuth)
                let me = try await service.json(Me.self, .get, peer.url("api/me"))
                #expect(me == Me(sub: "robot", thumbprint: certificate.thumbprint))
            }
            #expect(try await peer.counters()["self_signed_tls_client_auth"] == 1)
        }
    }

    @Test(.enabled(if: InteropPeer.shouldRun, InteropPeer.disabledNote))
    func withoutACertificateTheTokenEndpointRefusesTheClient() async throws {
        try await TLSPeer.run(serving: server, pki: pki) { peer in
            try await withTransport { transport in
                let endpoint = OAuth2TokenEndpoint(url: peer.url("token"), clientID: "billing", authentication: .tlsClientAuth, transport: transport)
                let error = try await #require(throws: AuthError.self) { try await endpoint.requestTokens([("grant_type", "client_credentials")]) }
                #expect(error.code == .misconfigured)
            }
            #expect(try await peer.counters()["client_refused"] == 1)
        }
    }

    @Test(.enabled(if: InteropPeer.shouldRun, InteropPeer.disabledNote))
    func aBoundTokenIsNotSentOverAConnectionWithoutItsCertificate() async throws {
        let certificate = try pki.client("billing")
        let another = try pki.client("billing")
        try await TLSPeer.run(serving: server, pki: pki) { peer in
            let me = try await withTransport([peer.base: certificate]) { presenting in
                let endpoint = OAuth2TokenEndpoint(url: peer.url("token"), clientID: "billing", authentication: .tlsClientAuth, transport: presenting)
                let token = try await endpoint.requestTokens([("grant_type", "client_credentials")]).accessToken.reveal
                let me = try AuthRequest(method: .get, url: peer.url("api/me"), headerFields: [.authorization: "Bearer \(token)"])
                #expect(try await presenting.send(me).status.code == 200)
                return me
            }
            let token = try #require(me.head.headerFields[.authorization])

            // No certificate for the origin, or another certificate: refused, nothing sent.
            let cases: [[URL: TLSTestPKI.Issued]] = [[:], [peer.base: another]]
            for identities in cases {
                try await withTransport(identities) { transport in
                    let error = try await #require(throws: AuthError.self) { try await transport.send(me) }
                    #expect(error.code == .certificateBindingUnmet)
                    #expect(!error.description.contains(token.dropFirst(7)))
                }
            }
            let counters = try await peer.counters()
            #expect(counters.requests(path: "/api/me") == 1 && counters["binding_mismatch"] == 0)
        }
    }
}

extension MutualTLSTests {
    @Test func anIdentityShowsItsThumbprintAndNeverItsKey() throws {
        let issued = try pki.client("svc")
        let identity = try TLSClientIdentity(certificateChainPEM: issued.certificatePEM, privateKeyPEM: issued.keyPEM)
        #expect(identity.thumbprint == issued.thumbprint)
        var dumped = ""
        dump(identity, to: &dumped)
        let keyLines = issued.keyPEM.split(separator: "\n").filter { !$0.hasPrefix("-----") }
        for shown in [identity.description, String(reflecting: identity), dumped] {
            #expect(shown.contains(issued.thumbprint))
            #expect(!keyLines.contains { shown.contains($0) })
        }
        let error = #expect(throws: AuthError.self) { try TLSClientIdentity(certificateChainPEM: issued.certificatePEM, privateKeyPEM: "-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----") }
        #expect(error?.code == .misconfigured)
    }
}
