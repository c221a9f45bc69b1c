// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthSigning
import AuthTestServer
import Foundation
import HTTPTypes
import Testing

/// Two RFC 9421 signers in one client's pipeline, each with its own label and key, as a request
/// signed for a gateway and for the service behind it is.
@Suite struct TwoMessageSignersTests {
    /// Each signing middleware removed every `Signature-Input` and `Signature` field before
    /// signing, so the second one erased the first one's `sig1` and only `sig2` arrived.
    @Test func bothSignaturesArriveAndEachVerifies() async throws {
        try await Harness.run { h in
            let covered: [ComponentIdentifier] = [.method, .authority, .path, .header("content-digest")]
            let first = HTTPMessageSigner(
                label: "sig1", keyID: SignedTestKeys.ed25519KeyID, key: .ed25519(SignedTestKeys.ed25519PrivateKey),
                components: covered, contentDigest: [.sha256]
            )
            // Another digest algorithm: writing its own Content-Digest would break sig1.
            let second = HTTPMessageSigner(
                label: "sig2", keyID: SignedTestKeys.messageHMACKeyID, key: .hmacSHA256(SignedTestKeys.messageHMACSecret),
                components: covered, contentDigest: [.sha512]
            )
            let container = h.container()
            let clock = h.server.clock
            container.useRequestSigner(first, allowedHosts: h.hosts, now: { clock.now() })
            container.useRequestSigner(second, allowedHosts: h.hosts, now: { clock.now() })
            let client = container.makeClient(
                for: AccountKey(namespace: "signing", account: "service"), strategy: APIKeyHeaderStrategy(allowedHosts: AllowedHosts([]))
            )

            let body = Data(#"{"name":"two signers"}"#.utf8)
            let response = try await client.send(.put, h.url("echo/two-signers"), headerFields: [.contentType: "application/json"], body: body)
            #expect(response.status == .ok)
            let echo = try JSONDecoder().decode(EchoedRequest.self, from: response.body)
            var head = HTTPRequest(method: try #require(HTTPRequest.Method(echo.method)), scheme: "http", authority: echo.headers["host"], path: echo.path)
            for (name, value) in echo.headers where name != "host" {
                head.headerFields.append(HTTPField(name: try #require(HTTPField.Name(name)), value: value))
            }
            let received = AuthRequest(head: head, body: Data(echo.body.utf8))

            for label in ["sig1", "sig2"] {
                let verifier = HTTPMessageSignatureVerifier(policy: MessageVerificationPolicy(label: label), now: { clock.now() }) { keyID in
                    SignedTestKeys.messageVerificationKey(for: keyID)
                }
                await #expect(throws: Never.self, "signature \(label)") { try await verifier.verify(received) }
            }
            // The first signer's digest is kept (sig1 covers it); it proves the body to sig2 as well.
            #expect(echo.headers["content-digest"] == ContentDigest.value(for: body, algorithms: [.sha256]))
        }
    }
}
