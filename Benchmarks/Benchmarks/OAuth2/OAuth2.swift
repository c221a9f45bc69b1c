// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

// AuthOAuth2's per-request and per-sign-in cryptography (issue 20), each paired in the same
// iteration with the bare swift-crypto operation it is built on:
// - a DPoP proof (ES256: header with the public JWK, claims with jti, htm, htu, iat and ath)
//   against a bare P-256 signature over a message of the same size;
// - an ID token validation (ES256, JWKS already fetched: signature, iss, aud, exp, iat, nonce)
//   against a bare P-256 verification of the same token's signing input;
// - an ID token validation (ES256 and RS256, issue 55) against jwt-kit's own `verify` of the
//   same token with a key collection of the same key set: what AuthKit adds to jwt-kit (the
//   header read, the key-set lookup, the claim checks), which issue 55 holds within 1.2 ×.
import AuthCore
import AuthOAuth2
import Benchmark
import BenchmarkSupport
import Crypto
import _CryptoExtras
import Foundation
import JWTKit

let issuer = "https://issuer.example"
let clientID = "app"
let resourceURL = URL(string: "https://api.example.com/v1/orders?page=2")!
let accessToken = "eyJhbGciOiJFUzI1NiJ9.benchmark-access-token.0123456789abcdefghijklmnopqrstuvwxyz"

/// A client whose provider's keys are served, once, by a transport that answers at once.
func validatingClient(jwks: String) -> OAuth2Client {
    let metadata = AuthorizationServerMetadata(issuer: URL(string: issuer)!, tokenEndpoint: URL(string: "\(issuer)/token")!, jwksURI: URL(string: "\(issuer)/jwks")!)
    let transport = ClosureTransport { _ in AuthResponse(status: .ok, body: Data(jwks.utf8)) }
    return OAuth2Client(provider: OAuth2Provider(metadata: metadata), clientID: clientID, transport: transport)
}

/// An ES256 ID token, the JWKS with its key, the raw key for the baseline.
func signedIDToken() async throws -> (token: String, jwks: String, key: P256.Signing.PrivateKey) {
    let key = P256.Signing.PrivateKey()
    let keys = JWTKeyCollection()
    await keys.add(ecdsa: try ES256PrivateKey(backing: key), kid: "k1")
    let now = Date()
    let claims = IDTokenClaims(issuer: issuer, subject: "alice", audience: [clientID], expiresAt: now.addingTimeInterval(3_600), issuedAt: now, nonce: "n-0123456789")
    let token = try await keys.sign(claims, kid: "k1")
    let x963 = key.publicKey.x963Representation
    func b64(_ data: Data) -> String { data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "") }
    let jwks = #"{"keys":[{"kty":"EC","crv":"P-256","x":"\#(b64(x963[1..<33]))","y":"\#(b64(x963[33..<65]))","kid":"k1","alg":"ES256"}]}"#
    return (token, jwks, key)
}

/// An RS256 ID token (2048-bit key) and the JWKS with its key.
func signedRS256IDToken() async throws -> (token: String, jwks: String) {
    let key = try Insecure.RSA.PrivateKey(backing: _RSA.Signing.PrivateKey(keySize: .bits2048))
    let keys = JWTKeyCollection()
    await keys.add(rsa: key, digestAlgorithm: .sha256, kid: "r1")
    let now = Date()
    let claims = IDTokenClaims(issuer: issuer, subject: "alice", audience: [clientID], expiresAt: now.addingTimeInterval(3_600), issuedAt: now, nonce: "n-0123456789")
    let token = try await keys.sign(claims, kid: "r1")
    let (n, e) = try key.publicKey.getKeyPrimitives()
    func b64(_ data: Data) -> String { data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "") }
    return (token, #"{"keys":[{"kty":"RSA","n":"\#(b64(n))","e":"\#(b64(e))","kid":"r1","alg":"RS256"}]}"#)
}

/// jwt-kit's own key collection of a JWKS: the baseline's verifier.
func jwtKitKeys(_ jwks: String) async throws -> JWTKeyCollection {
    try await JWTKeyCollection().add(jwksJSON: jwks)
}

let benchmarks: @Sendable () -> Void = {
    var paired = Benchmark.Configuration.suite(.microseconds, scaling: .one, warmup: 5, maxDuration: .seconds(2), maxIterations: 2_000)
    paired.metrics = Paired.metrics

    Benchmark("DPoP proof (ES256, with ath) vs a bare P-256 signature", configuration: paired) { (benchmark: Benchmark, setup: (DPoP, P256.Signing.PrivateKey)) in
        let (dpop, key) = setup
        let message = Data(repeating: 0x61, count: 420)  // about a proof's signing input
        try await Paired.measure(benchmark) {
            for _ in benchmark.scaledIterations { blackHole(try key.signature(for: identity(message))) }
        } subject: {
            for _ in benchmark.scaledIterations { blackHole(try await dpop.proof(method: "GET", url: resourceURL, accessToken: accessToken)) }
        }
    } setup: {
        (try await DPoP(key: DPoPKey()), P256.Signing.PrivateKey())
    }

    Benchmark("ID token validation (ES256, cached JWKS) vs a bare P-256 verification", configuration: paired) { (benchmark: Benchmark, setup: (OAuth2Client, String, P256.Signing.PublicKey, P256.Signature, Data)) in
        let (client, token, publicKey, signature, input) = setup
        try await Paired.measure(benchmark) {
            for _ in benchmark.scaledIterations { blackHole(publicKey.isValidSignature(signature, for: identity(input))) }
        } subject: {
            for _ in benchmark.scaledIterations { blackHole(try await client.validateIDToken(token, nonce: "n-0123456789")) }
        }
    } setup: {
        let (token, jwks, key) = try await signedIDToken()
        let client = validatingClient(jwks: jwks)
        _ = try await client.validateIDToken(token, nonce: "n-0123456789")  // the JWKS fetched once, then cached
        let parts = token.split(separator: ".")
        let input = Data("\(parts[0]).\(parts[1])".utf8)
        let signature = try key.signature(for: input)
        return (client, token, key.publicKey, signature, input)
    }

    for algorithm in ["ES256", "RS256"] {
        Benchmark("ID token validation (\(algorithm), cached JWKS) vs jwt-kit's verify of the same token and key set", configuration: paired) { (benchmark: Benchmark, setup: (OAuth2Client, String, JWTKeyCollection)) in
            let (client, token, keys) = setup
            try await Paired.measure(benchmark) {
                for _ in benchmark.scaledIterations { blackHole(try await keys.verify(identity(token), as: IDTokenClaims.self)) }
            } subject: {
                for _ in benchmark.scaledIterations { blackHole(try await client.validateIDToken(token, nonce: "n-0123456789")) }
            }
        } setup: {
            let (token, jwks) = algorithm == "ES256" ? try await { let t = try await signedIDToken(); return (t.token, t.jwks) }() : try await signedRS256IDToken()
            let client = validatingClient(jwks: jwks)
            _ = try await client.validateIDToken(token, nonce: "n-0123456789")  // the JWKS fetched once, then cached
            return (client, token, try await jwtKitKeys(jwks))
        }
    }
}
