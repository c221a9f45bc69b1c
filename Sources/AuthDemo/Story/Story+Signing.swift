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

extension Story {
    /// Requests signed with HMAC, RFC 9421 (HMAC-SHA256 and Ed25519) and AWS SigV4 are verified
    /// by the server; a request whose body was changed after signing is refused.
    func signedRequestsStep() async {
        await report.step("Signed requests: HMAC, RFC 9421 and SigV4 verified; a tampered one refused") {
            let signers: [(name: String, route: String, signer: any RequestSigner)] = [
                ("HMAC-SHA256", "hmac", HMACRequestSigner(keyID: SignedTestKeys.hmacKeyID, key: SignedTestKeys.hmacSecret)),
                ("RFC 9421 hmac-sha256", "rfc9421", messageSigner(SignedTestKeys.messageHMACKeyID, .hmacSHA256(SignedTestKeys.messageHMACSecret))),
                ("RFC 9421 ed25519", "rfc9421", messageSigner(SignedTestKeys.ed25519KeyID, .ed25519(SignedTestKeys.ed25519PrivateKey))),
                ("AWS SigV4", "sigv4", SigV4Signer(credentials: SignedTestKeys.sigV4Credentials, configuration: SignedTestKeys.sigV4Configuration)),
            ]
            let acceptedBefore = server.counters.count("signedAccepted")
            let clock = server.clock
            var accepted: [String] = []
            for entry in signers {
                // One container per signer, signing with the server's clock.
                let signing = AuthContainer()
                signing.useHTTPClient(transport)
                signing.useRequestSigner(entry.signer, allowedHosts: hosts, now: { clock.now() })
                let client = signing.makeClient(for: AccountKey(namespace: "demo-signing", account: entry.route), strategy: APIKeyHeaderStrategy(allowedHosts: AllowedHosts([])))
                let body = Data(#"{"order":42,"note":"signed"}"#.utf8)
                let response = try await client.send(.put, base.appending(path: "signed/\(entry.route)/orders/42"), headerFields: [.contentType: "application/json"], body: body)
                try check(response.status == .ok, "\(entry.name) answered \(response.status.code): \(String(decoding: response.body, as: UTF8.self))")
                accepted.append(entry.name)
            }
            let counted = server.counters.count("signedAccepted") - acceptedBefore
            try check(counted == signers.count, "the server counted \(counted) accepted signatures")

            var tampered = try AuthRequest(method: .put, url: base.appending(path: "signed/hmac/orders/42"), body: Data(#"{"order":42}"#.utf8))
            try await signers[0].signer.sign(&tampered, at: clock.now())
            tampered.body = Data(#"{"order":43}"#.utf8)
            let refused = try await transport.send(tampered)
            let reason = (try? JSONDecoder().decode([String: String].self, from: refused.body))?["reason"] ?? "?"
            try check(refused.status == .unauthorized, "the tampered request answered \(refused.status.code)")
            return "accepted: \(accepted.joined(separator: ", ")); a body changed after signing was refused (401: \(reason))"
        }
    }

    private func messageSigner(_ keyID: String, _ key: MessageSigningKey) -> HTTPMessageSigner {
        HTTPMessageSigner(keyID: keyID, key: key, components: [.method, .authority, .path, .query, .header("content-digest")], contentDigest: [.sha256])
    }
}
