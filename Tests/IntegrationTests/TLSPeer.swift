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

/// `Interop/tls_server.py` (Python's `ssl` and `http.server`) serving a certificate made by the
/// test, reached at `https://127.0.0.1:<port>/`.
struct TLSPeer {
    /// `https://127.0.0.1:<port>/`.
    let base: URL
    /// The test CA, which issued the peer's certificate.
    let caPEM: String

    /// The URL of `path` on this peer.
    func url(_ path: String) -> URL { base.appending(path: path) }

    /// The peer's `GET /_counters`, read over a connection of its own (trusting the CA, without
    /// pins or a client certificate).
    func counters() async throws -> PeerCounters {
        var configuration = HTTPClientTransport.defaultConfiguration
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMBytes(Array(caPEM.utf8)))
        configuration.tlsConfiguration = tls
        return try await HTTPClientTransport.withTransport(configuration: configuration) { transport in
            let response = try await transport.send(AuthRequest(method: .get, url: url("_counters")))
            return try JSONDecoder().decode(PeerCounters.self, from: response.body)
        }
    }

    /// Starts the peer with `server`'s certificate, asking clients for certificates issued by the
    /// test CA or listed in `selfSigned` (optional unless `requireClientCertificate`).
    static func run<T>(
        serving server: TLSTestPKI.Issued, pki: TLSTestPKI, selfSigned: [TLSTestPKI.Issued] = [], requireClientCertificate: Bool = false,
        _ body: (TLSPeer) async throws -> T
    ) async throws -> T {
        let folder = FileManager.default.temporaryDirectory.appending(path: "authkit-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let caPEM = try pki.caPEM
        let files = ["cert.pem": server.certificatePEM, "key.pem": server.keyPEM, "client-ca.pem": ([caPEM] + selfSigned.map(\.certificatePEM)).joined(separator: "\n")]
        for (name, text) in files { try Data(text.utf8).write(to: folder.appending(path: name)) }
        var arguments = ["--cert", folder.appending(path: "cert.pem").path, "--key", folder.appending(path: "key.pem").path, "--client-ca", folder.appending(path: "client-ca.pem").path]
        if requireClientCertificate { arguments.append("--require-client-certificate") }
        // One argument with `=`: a base64url thumbprint may begin with `-`, which argparse would
        // take for an option (1 run in 64 failed to start the peer).
        for certificate in selfSigned { arguments.append("--self-signed=\(certificate.thumbprint)") }
        return try await InteropPeer.run("tls_server.py", arguments: arguments) { peer in
            try await body(TLSPeer(base: URL(string: "https://127.0.0.1:\(peer.base.port!)/")!, caPEM: caPEM))
        }
    }
}
