// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTLS
import NIOCore
import NIOSSL
import Synchronization

/// A Hummingbird server with TLS on 127.0.0.1, for the pinning and mutual-TLS tests: it serves
/// `GET /hello` and counts the requests that reached it, and those that carried an
/// `Authorization` field.
struct TLSTestServer: Sendable {
    /// `https://127.0.0.1:<port>`.
    let base: URL
    private let counts: Counts

    /// Requests that reached a route.
    var requests: Int { counts.requests.load(ordering: .relaxed) }
    /// Requests that carried an `Authorization` field.
    var authorizations: Int { counts.authorizations.load(ordering: .relaxed) }

    final class Counts: Sendable {
        let requests = Atomic(0)
        let authorizations = Atomic(0)
    }

    /// Runs `body` with a server presenting `server` (PEM certificate and key); with
    /// `clientCA`, the server requires a client certificate issued by it.
    static func withRunning<T>(certificatePEM: String, keyPEM: String, clientCA: String? = nil, _ body: (TLSTestServer) async throws -> T) async throws -> T {
        var tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMBytes(Array(certificatePEM.utf8)).map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(keyPEM.utf8), format: .pem))
        )
        if let clientCA {
            tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMBytes(Array(clientCA.utf8)))
            // A client without a certificate (or with one the CA did not issue) fails the handshake.
            tls.certificateVerification = .noHostnameVerification
        }
        let counts = Counts()
        let router = Router()
        router.get("/hello") { request, _ -> String in
            counts.requests.add(1, ordering: .relaxed)
            if request.headers[.authorization] != nil { counts.authorizations.add(1, ordering: .relaxed) }
            return "hello"
        }
        let port = AsyncStream<Int>.makeStream()
        let app = Application(
            router: router,
            server: try .tls(.http1(), tlsConfiguration: tls),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                port.continuation.yield(channel.localAddress?.port ?? 0)
                port.continuation.finish()
            }
        )
        let server = Task { try await app.runService() }
        defer { server.cancel() }
        var iterator = port.stream.makeAsyncIterator()
        guard let bound = await iterator.next(), bound > 0 else { throw CancellationError() }
        let result = try await body(TLSTestServer(base: URL(string: "https://127.0.0.1:\(bound)")!, counts: counts))
        server.cancel()
        _ = await server.result
        return result
    }
}
