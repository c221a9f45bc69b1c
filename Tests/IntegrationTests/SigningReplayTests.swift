// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthHTTPClient
import AuthSigning
import AuthTestServer
import Foundation
import HTTPTypes
import Testing

/// Replays, stale signatures and signatures that do not cover what the server demands.
@Suite struct SigningReplayTests {
    @Test(arguments: [SigningScheme.hmac, .messageEd25519])
    func theSameSignedBytesSentTwiceAreRefusedTheSecondTime(_ scheme: SigningScheme) async throws {
        try await Harness.run { h in
            var request = try AuthRequest(method: .post, url: h.url("signed/\(scheme.route)/transfers"), headerFields: [.contentType: "application/json"], body: Data(#"{"to":"bob","amount":5}"#.utf8))
            try await scheme.signer().sign(&request, at: h.server.clock.now())

            let first = try await h.transport.send(request)
            #expect(first.status == .ok, "\(SignedAnswer.describe(first))")
            let replay = try await h.transport.send(request)
            #expect(replay.status == .unauthorized)
            #expect(try SignedAnswer.decode(replay).code == "replayedNonce")
            #expect(h.server.counters.count("signedAccepted") == 1)
            #expect(h.server.counters.count("signedRejected") == 1)
        }
    }

    @Test func anHMACSignatureOutsideTheServerToleranceIsRefused() async throws {
        try await Harness.run { h in
            var request = try AuthRequest(method: .get, url: h.url("signed/hmac/items"))
            try await SigningScheme.hmac.signer().sign(&request, at: h.server.clock.now().addingTimeInterval(-301))
            let response = try await h.transport.send(request)
            #expect(response.status == .unauthorized)
            #expect(try SignedAnswer.decode(response).code == "expired")
        }
    }

    @Test func anRFC9421SignatureThatDoesNotCoverTheBodyDigestIsRefused() async throws {
        try await Harness.run { h in
            let signer = HTTPMessageSigner(
                keyID: SignedTestKeys.ed25519KeyID, key: .ed25519(SignedTestKeys.ed25519PrivateKey),
                components: [.method, .authority, .path]
            )
            let client = SigningFixture.client(h, signer: signer)
            // Without a body the three components are enough…
            #expect(try await client.send(.get, h.url("signed/rfc9421/items")).status == .ok)
            // …with one, content-digest must be covered too.
            let response = try await client.send(.put, h.url("signed/rfc9421/items"), body: Data("x".utf8))
            #expect(response.status == .unauthorized)
            #expect(try SignedAnswer.decode(response).code == "requiredComponentNotCovered")
        }
    }

    @Test func aSigV4SignatureForAnotherHostIsRefused() async throws {
        try await Harness.run { h in
            // Signed for another authority than the one the request reaches.
            var request = try AuthRequest(method: .get, url: h.url("signed/sigv4/items"))
            request.head.authority = "api.example.com"
            try await SigningScheme.sigV4.signer().sign(&request, at: h.server.clock.now())
            request.head.authority = h.base.host().map { "\($0):\(h.base.port ?? 80)" }
            let response = try await h.transport.send(request)
            #expect(response.status == .unauthorized)
            #expect(try SignedAnswer.decode(response).code == "badSignature")
        }
    }
}
