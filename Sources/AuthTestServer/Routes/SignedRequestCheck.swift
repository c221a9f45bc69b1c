// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Foundation
import HTTPTypes
import Hummingbird

/// Why a signed endpoint refused a request: a short code and a reason free of secrets.
struct SignatureRejection: Error, Sendable {
    /// The verifier's code, e.g. `badSignature`, `replayedNonce`.
    let code: String
    /// What was wrong, as the verifier said it (never a key, signature or nonce).
    let reason: String
}

/// What a signed endpoint answers, and how it reads the request it verifies.
enum SignedRequestCheck {
    /// `200 {"ok": true, "key_id": …}`.
    struct Accepted: Encodable {
        let ok = true
        let scheme: String
        let keyID: String
        let method: String
        let path: String
        var username: String?

        enum CodingKeys: String, CodingKey {
            case ok, scheme, method, path, username
            case keyID = "key_id"
        }
    }

    /// `401 {"error": "invalid_signature", "reason": …}`.
    struct Refused: Encodable {
        let error = "invalid_signature"
        let scheme: String
        let code: String
        let reason: String
    }

    /// The request as the client signed it: method, scheme `http`, authority from `Host`, the
    /// request target (path and query) exactly as received, the header fields and the body.
    static func authRequest(from request: Request, body: Data) -> AuthRequest {
        var head = request.head
        head.scheme = "http"
        return AuthRequest(head: head, body: body)
    }

    /// The 401 answer for `rejection`, with a challenge naming the scheme.
    static func refused(_ rejection: SignatureRejection, scheme: String, challenge: String) -> Response {
        var headers = HTTPFields()
        headers[.wwwAuthenticate] = #"\#(challenge) realm="auth-test-server""#
        return ServerResponse.json(
            .unauthorized,
            Refused(scheme: scheme, code: rejection.code, reason: rejection.reason),
            headers: headers
        )
    }

    /// Counts the outcome (`signedAccepted` / `signedRejected`, also per scheme).
    static func count(accepted: Bool, scheme: String, environment: RouteEnvironment) {
        let name = accepted ? "signedAccepted" : "signedRejected"
        environment.counters.record(.custom(name))
        environment.counters.record(.custom("\(name).\(scheme)"))
    }
}
