// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AsyncHTTPClient
import AuthCore
import AuthHTTPClient
import Foundation
import NIOSSL
import Testing

/// Public-key pinning on `HTTPClientTransport`, against real TLS servers with certificates made in
/// the test: Hummingbird (BoringSSL, as the client) and Python's `ssl` module (OpenSSL), each with
/// a chain from the same test CA, so that only the pins tell a pinned key from another.
@Suite(.timeLimit(.minutes(10)))
struct CertificatePinningTests {
    let pki: TLSTestPKI
    /// The key the pins expect, and the backup key kept aside.
    let pinned: TLSTestPKI.Issued
    let backup: TLSTestPKI.Issued
    /// A certificate from the same CA, with a key that is not pinned.
    let other: TLSTestPKI.Issued

    init() throws {
        pki = try TLSTestPKI()
        pinned = try pki.server()
        backup = try pki.server()
        other = try pki.server()
    }

    /// Runs `body` with a transport that trusts only the test CA, with `pinning`.
    @discardableResult
    func withTransport<T>(_ pinning: CertificatePinning?, _ body: (HTTPClientTransport) async throws -> T) async throws -> T {
        var configuration = HTTPClientTransport.defaultConfiguration
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMBytes(Array(try pki.caPEM.utf8)))
        configuration.tlsConfiguration = tls
        return try await HTTPClientTransport.withTransport(configuration: configuration, tls: try TransportTLS(pinning: pinning), body)
    }

    func pins(_ keys: TLSTestPKI.Issued..., expires: Date? = nil, mode: CertificatePinning.Mode = .enforce, events: AuthEvents? = nil) throws -> CertificatePinning {
        try CertificatePinning(pins: ["127.0.0.1": keys.map(\.pin)], expires: expires, mode: mode, events: events)
    }

    /// The events `observed` received so far: those before a marker emitted now.
    static func events(until events: AuthEvents, _ observed: AsyncStream<AuthEvent>) async -> [AuthEvent] {
        let marker = AuthEvent.signedOut(AccountKey(namespace: "test", account: "marker"))
        events.emit(marker)
        var received: [AuthEvent] = []
        for await event in observed {
            if event == marker { break }
            received.append(event)
        }
        return received
    }

    /// `GET /hello` with a credential on it.
    func hello(_ base: URL) throws -> AuthRequest {
        try AuthRequest(method: .get, url: base.appending(path: "hello"), headerFields: [.authorization: "Bearer not-for-another-key"])
    }

    @Test func thePinnedKeyIsAccepted() async throws {
        try await TLSTestServer.withRunning(certificatePEM: pinned.certificatePEM, keyPEM: pinned.keyPEM) { server in
            try await withTransport(try pins(pinned, backup)) { transport in
                let response = try await transport.send(try hello(server.base))
                #expect(response.status.code == 200 && String(decoding: response.body, as: UTF8.self) == "hello")
            }
            #expect(server.requests == 1)
        }
    }

    @Test func aValidChainWithAnotherKeyIsRefusedBeforeAnythingIsSent() async throws {
        try await TLSTestServer.withRunning(certificatePEM: other.certificatePEM, keyPEM: other.keyPEM) { server in
            // Without pins the same chain is accepted: only the pins refuse it.
            try await withTransport(nil) { plain in
                let status = try await plain.send(AuthRequest(method: .get, url: server.base.appending(path: "hello"))).status.code
                #expect(status == 200)
            }
            let events = AuthEvents()
            let observed = events.stream()
            try await withTransport(try pins(pinned, backup, events: events)) { transport in
                // Twice: the second request does not get through on another connection either.
                for _ in 0..<2 {
                    let error = try await #require(throws: AuthError.self) { try await transport.send(try hello(server.base)) }
                    #expect(error.code == .pinMismatch)
                    #expect(error.message.contains("sha256/\(other.pin)"))
                }
                // Through a client with the retry middleware: refused once, not retried.
                let client = AuthClient(transport: transport, middlewares: [RetryMiddleware(policy: RetryPolicy(maxAttempts: 3))])
                await #expect(throws: AuthError.self) { try await client.send(try hello(server.base)) }
            }
            #expect(server.requests == 1 && server.authorizations == 0)
            // One connection, checked and refused, per request: the retry middleware made no
            // second attempt.
            let reported = await Self.events(until: events, observed)
            #expect(reported == Array(repeating: .pinMismatch(PinMismatch(host: "127.0.0.1", presentedPin: other.pin, enforced: true)), count: 3))
        }
    }

    @Test func theBackupPinIsAccepted() async throws {
        try await TLSTestServer.withRunning(certificatePEM: backup.certificatePEM, keyPEM: backup.keyPEM) { server in
            try await withTransport(try pins(pinned, backup)) { transport in
                let status = try await transport.send(try hello(server.base)).status.code
                #expect(status == 200)
            }
            #expect(server.requests == 1)
        }
    }

    @Test func anExpiredPinSetIsNotEnforced() async throws {
        try await TLSTestServer.withRunning(certificatePEM: other.certificatePEM, keyPEM: other.keyPEM) { server in
            let events = AuthEvents()
            let observed = events.stream()
            let expired = try pins(pinned, backup, expires: Date(timeIntervalSinceNow: -60), events: events)
            try await withTransport(expired) { transport in
                let status = try await transport.send(try hello(server.base)).status.code
                #expect(status == 200)
            }
            #expect(server.requests == 1)
            // Not reported either: an expired pin set is not checked.
            #expect(await Self.events(until: events, observed).isEmpty)
        }
    }

    @Test func reportOnlyEmitsTheEventAndProceeds() async throws {
        try await TLSTestServer.withRunning(certificatePEM: other.certificatePEM, keyPEM: other.keyPEM) { server in
            let events = AuthEvents()
            let observed = events.stream()
            try await withTransport(try pins(pinned, backup, mode: .reportOnly, events: events)) { transport in
                let status = try await transport.send(try hello(server.base)).status.code
                #expect(status == 200)
            }
            #expect(server.requests == 1 && server.authorizations == 1)
            #expect(await Self.events(until: events, observed) == [.pinMismatch(PinMismatch(host: "127.0.0.1", presentedPin: other.pin, enforced: false))])
        }
    }

    @Test func aPinnedHostIsNotAskedForOverPlainHTTP() async throws {
        try await withTransport(try pins(pinned, backup)) { transport in
            let error = try await #require(throws: AuthError.self) {
                try await transport.send(try AuthRequest(method: .get, url: URL(string: "http://127.0.0.1:9/hello")!))
            }
            #expect(error.code == .pinMismatch)
        }
    }

    // MARK: An independent TLS server: Python's ssl module

    @Test(.enabled(if: InteropPeer.shouldRun, InteropPeer.disabledNote))
    func pythonSSLServerPinnedBackupAndOtherKeys() async throws {
        try await TLSPeer.run(serving: other, pki: pki) { peer in
            // The peer's key as the pinned one, then as the backup one: accepted.
            for keys in [[other, pinned], [pinned, other]] {
                try await withTransport(try CertificatePinning(pins: ["127.0.0.1": keys.map(\.pin)])) { transport in
                    let status = try await transport.send(try hello(peer.base)).status.code
                    #expect(status == 200)
                }
            }
            #expect(try await peer.counters()["authorization"] == 2)

            // Neither pinned: refused, and the server saw no request and no credential.
            try await withTransport(try pins(pinned, backup)) { transport in
                let error = try await #require(throws: AuthError.self) { try await transport.send(try hello(peer.base)) }
                #expect(error.code == .pinMismatch)
            }
            let counters = try await peer.counters()
            #expect(counters.requests(path: "/hello") == 2 && counters["authorization"] == 2)
        }
    }
}
