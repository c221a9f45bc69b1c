// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthHTTPClient
import AuthURLSession
import Foundation
import Testing

/// A certificate-bound token (RFC 8705 `cnf.x5t#S256`) is refused by both transports when no
/// client certificate is configured for its origin, before anything is sent; URLSession refuses
/// pins it cannot check. (Pins and certificates over real TLS: IntegrationTests'
/// `CertificatePinningTests` and `MutualTLSTests`.)
struct BoundTokenTransportTests {
    /// A JWT (unsigned: only its claims matter here) bound to the thumbprint `x5t`.
    static func boundToken(_ x5t: String) -> String {
        let encode = { (text: String) in
            Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }
        return encode(#"{"alg":"none"}"#) + "." + encode(#"{"sub":"svc","cnf":{"x5t#S256":"\#(x5t)"}}"#) + ".c2ln"
    }

    @Test(arguments: TransportKind.allCases)
    func aBoundTokenIsNotSentWithoutItsCertificate(_ kind: TransportKind) async throws {
        try await EchoServer.withRunning { base in
            try await kind.withTransport { transport in
                let token = Self.boundToken("bm90LWEtcmVhbC10aHVtYnByaW50")
                let bound = try AuthRequest(method: .get, url: base.appending(path: "echo"), headerFields: [.authorization: "Bearer \(token)"])
                let error = try await #require(throws: AuthError.self) { try await transport.send(bound) }
                #expect(error.code == .certificateBindingUnmet && !error.description.contains(token))
                // The same request with an unbound token is sent, and echoed.
                let plain = try AuthRequest(method: .get, url: base.appending(path: "echo"), headerFields: [.authorization: "Bearer opaque"])
                #expect(try await transport.send(plain).status.code == 200)
            }
        }
    }

    @Test func urlSessionRefusesPinsItCannotCheck() throws {
        let pinning = try CertificatePinning(pins: ["api.example.com": [
            Data(repeating: 1, count: 32).base64EncodedString(), Data(repeating: 2, count: 32).base64EncodedString(),
        ]])
        let error = #expect(throws: AuthError.self) { try URLSessionTransport(pinning: pinning) }
        #expect(error?.code == .misconfigured && error?.message.contains("api.example.com") == true)
    }
}
