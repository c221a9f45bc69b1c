// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import JWTKit
import Synchronization

/// The provider's DPoP checks (RFC 9449 §4.3, §8): a proof's signature by the key it carries,
/// `typ`, `htm`, `htu`, `iat` within a minute, a `jti` never seen, `ath` on resource requests,
/// and the provider's current nonce.
extension OAuth2ProviderState {
    /// The outcome of checking a proof.
    enum ProofCheck {
        /// Good: the key's RFC 7638 thumbprint.
        case valid(thumbprint: String)
        /// Good but without the current nonce: challenge with it.
        case needsNonce
        /// Refused, with the reason.
        case invalid(String)
    }

    /// Checks the `DPoP` proof of `request` for `method` and `url`.
    func checkProof(_ request: Request, method: String, url: String, accessToken: String?, now: Date) async -> ProofCheck {
        let proofs = request.headers[values: HTTPField.Name("DPoP")!]
        guard proofs.count == 1, let proof = proofs.first else { return .invalid("exactly one DPoP proof is required") }
        let parts = proof.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerData = Base64URL.decode(parts[0]),
              let header = try? JSONDecoder().decode(ProofHeader.self, from: headerData), header.typ == "dpop+jwt", header.alg == "ES256",
              header.jwk.kty == "EC", header.jwk.crv == "P-256" else { return .invalid("the proof header is not an ES256 dpop+jwt with a P-256 jwk") }
        let keys = JWTKeyCollection()
        do {
            await keys.add(ecdsa: try ES256PublicKey(parameters: (header.jwk.x, header.jwk.y)))
            let claims = try await keys.verify(proof, as: ProofClaims.self)
            guard claims.htm == method, claims.htu == url else { return .invalid("htm or htu do not match the request") }
            guard abs(now.timeIntervalSince1970 - Double(claims.iat)) <= 60 else { return .invalid("iat is not within a minute") }
            if let accessToken, claims.ath != Base64URL.encode(Data(SHA256.hash(data: Data(accessToken.utf8)))) { return .invalid("ath is not the token's hash") }
            let fresh = dpopState.withLock { $0.seenJTIs.insert(claims.jti).inserted }
            guard fresh else {
                dpopState.withLock { $0.replays += 1 }
                return .invalid("the proof was used before")
            }
            guard claims.nonce == dpopNonce else { return .needsNonce }
        } catch {
            return .invalid("the proof's signature does not hold")
        }
        let canonical = #"{"crv":"P-256","kty":"EC","x":"\#(header.jwk.x)","y":"\#(header.jwk.y)"}"#
        return .valid(thumbprint: Base64URL.encode(Data(SHA256.hash(data: Data(canonical.utf8)))))
    }

    /// The nonce the provider asks proofs to carry.
    public var dpopNonce: String { dpopState.withLock { $0.nonce } }

    /// Replaces the nonce: the next proof of every client is challenged once more.
    public func rotateDPoPNonce() {
        dpopState.withLock { $0.nonce = ServerState.randomToken() }
    }

    /// How many proofs were refused as replays.
    public var replayedProofs: Int { dpopState.withLock { $0.replays } }
}

/// A proof's JOSE header.
struct ProofHeader: Decodable {
    struct Key: Decodable { let kty, crv, x, y: String }
    let typ, alg: String
    let jwk: Key
}

/// A proof's claims.
struct ProofClaims: JWTPayload {
    let jti, htm, htu: String
    let iat: Int
    let ath, nonce: String?

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// The provider's DPoP memory.
struct DPoPState {
    var nonce = ServerState.randomToken()
    var seenJTIs: Set<String> = []
    var replays = 0
}
