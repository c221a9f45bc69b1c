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

/// Signing runs after authentication: a request retried with a renewed bearer token is signed
/// again, so the server verifies the request that carries the new token.
@Suite struct SigningRenewalTests {
    /// `/signed/<scheme>/me` needs both a valid signature and a valid bearer token. For HMAC the
    /// retry must carry a fresh nonce (the first attempt's nonce was already accepted); for
    /// RFC 9421 the signature covers `authorization`, so it must be made over the new token.
    @Test(arguments: [SigningScheme.hmac, .messageHMAC, .messageEd25519])
    func aSignedRequestWhoseTokenExpiredIsSignedAgainAfterTheRenewal(_ scheme: SigningScheme) async throws {
        try await Harness.run { h in
            let sent = SentRequests()
            let container = h.container()
            sent.record(into: container, forwardingTo: h.transport)
            let clock = h.server.clock
            container.useRequestSigner(scheme.signer(covering: [.header("authorization")]), now: { clock.now() })
            let alice = try await h.signedInClient("alice", container: container)
            let me = h.url("signed/\(scheme.route)/me")

            let before = try await alice.send(.get, me)
            #expect(before.status == .ok, "\(SignedAnswer.describe(before))")
            #expect(try SignedAnswer.decode(before).username == "alice")

            h.server.resetCounters()
            let sentBefore = sent.all.count
            h.server.clock.advance(by: 301)  // past the 300 s access-token lifetime
            let after = try await alice.send(.get, me)
            let answer = try SignedAnswer.decode(after)
            #expect(after.status == .ok, "\(answer)")
            #expect(answer.username == "alice")
            #expect(answer.key_id == scheme.keyID)

            let counters = h.server.counters
            #expect(counters.renewals == 1)
            // The expired attempt was well signed but refused for its token; the retry with the
            // renewed token was signed again and accepted.
            #expect(counters.requests(path: "/signed/\(scheme.route)/me") == 2)
            #expect(counters.count("signedAccepted.\(scheme.route)") == 2)
            #expect(counters.count("signedRejected") == 0)

            let attempts = sent.all.dropFirst(sentBefore).filter { $0.head.path == "/signed/\(scheme.route)/me" }
            try #require(attempts.count == 2)
            let (expired, renewed) = (attempts[attempts.startIndex], attempts[attempts.startIndex + 1])
            #expect(expired.head.headerFields[.authorization] != renewed.head.headerFields[.authorization])
            #expect(h.server.counters.lastHeaders(path: "/signed/\(scheme.route)/me")["authorization"] == renewed.head.headerFields[.authorization])
            for name in scheme.signatureFields {
                #expect(expired.head.headerFields[name] != renewed.head.headerFields[name], "\(name) was not renewed")
            }
        }
    }

    @Test func aSignedRequestWithoutABearerTokenIsRefusedByTheBearerCheck() async throws {
        try await Harness.run { h in
            let client = SigningFixture.client(h, signer: SigningScheme.hmac.signer())
            let response = try await client.send(.get, h.url("signed/hmac/me"))
            #expect(response.status == .unauthorized)
            #expect(try SignedAnswer.decode(response).error == "invalid_token")
            #expect(h.server.counters.count("signedAccepted.hmac") == 1)
        }
    }
}
