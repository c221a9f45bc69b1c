// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthHTTPClient
import AuthSigning
import AuthURLSession
import Crypto
import Foundation
import HTTPTypes
import Testing

/// What each transport puts on the wire for a signed request, verified by the
/// http-message-signatures package (`Interop/message_signatures_server.py`) from the bytes it
/// received.
@Suite(.enabled(if: InteropPeer.shouldRun, InteropPeer.disabledNote), .timeLimit(.minutes(5)))
struct InteropMessageSignatureTransportTests {
    /// A field on two lines is signed as its values joined with `, ` (RFC 9421 §2.1).
    /// URLSessionTransport sent it as one line joined with `,` (Foundation's `addValue`), and
    /// the peer refused the signature with 401.
    @Test(arguments: TransportKind.allCases)
    func aSignatureOverARepeatedFieldVerifies(_ kind: TransportKind) async throws {
        let privateKey = Curve25519.Signing.PrivateKey()
        let key = InteropMessageSignatureTests.PeerKey(
            keyID: "k-ed25519", key: .ed25519(privateKey),
            spec: ["alg": "ed25519", "raw_base64": privateKey.rawRepresentation.base64EncodedString()]
        )
        try await InteropMessageSignatureTests.withPeer([key]) { peer, _ in
            var request = try AuthRequest(method: .get, url: peer.url("items"))
            request.head.headerFields.append(HTTPField(name: try #require(HTTPField.Name("X-List")), value: "a"))
            request.head.headerFields.append(HTTPField(name: try #require(HTTPField.Name("X-List")), value: "b"))
            let signer = HTTPMessageSigner(keyID: key.keyID, key: key.key, components: [.method, .targetURI, .header("x-list")])
            try await signer.sign(&request, at: Date())
            let response = try await kind.withTransport { try await $0.send(request) }
            #expect(response.status.code == 200, "\(String(decoding: response.body, as: UTF8.self))")
        }
    }
}
