// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

// What Benchmarks/scripts/callgrind-idtoken counts: one ID token validated `count` times, by
// AuthKit (`OAuth2Client.validateIDToken`, its provider's keys fetched once beforehand) or by
// jwt-kit's own `verify` with a key collection of the same key set, so that the instructions
// per validation are the difference between two counts divided by the difference between them.
//
//   [IDTOKEN_DRIVER_RSA_KEY=key.pem] idtoken-driver authkit|jwtkit ES256|RS256 <count>
import AuthCore
import AuthOAuth2
import Crypto
import _CryptoExtras
import Foundation
import JWTKit

let arguments = CommandLine.arguments
guard arguments.count == 4, ["authkit", "jwtkit"].contains(arguments[1]), ["ES256", "RS256"].contains(arguments[2]), let count = Int(arguments[3]) else {
    FileHandle.standardError.write(Data("usage: idtoken-driver authkit|jwtkit ES256|RS256 <count>\n".utf8))
    exit(2)
}
let issuer = "https://issuer.example"
let clientID = "app"
let nonce = "n-0123456789"

func b64(_ data: Data) -> String {
    data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
}

/// A token signed with a fresh key of `algorithm` and the JWKS publishing that key.
func signedToken(_ algorithm: String) async throws -> (token: String, jwks: String) {
    let keys = JWTKeyCollection()
    let jwk: String
    if algorithm == "ES256" {
        let key = P256.Signing.PrivateKey()
        await keys.add(ecdsa: try ES256PrivateKey(backing: key), kid: "k1")
        let x963 = key.publicKey.x963Representation
        jwk = #"{"kty":"EC","crv":"P-256","x":"\#(b64(x963[1..<33]))","y":"\#(b64(x963[33..<65]))","kid":"k1","alg":"ES256"}"#
    } else {
        // A key generated here costs a random number of instructions (the search for primes):
        // two runs to compare read one key from the file that IDTOKEN_DRIVER_RSA_KEY names.
        let backing = try ProcessInfo.processInfo.environment["IDTOKEN_DRIVER_RSA_KEY"].map { try _RSA.Signing.PrivateKey(pemRepresentation: String(contentsOfFile: $0, encoding: .utf8)) }
        let key = try Insecure.RSA.PrivateKey(backing: backing ?? _RSA.Signing.PrivateKey(keySize: .bits2048))
        await keys.add(rsa: key, digestAlgorithm: .sha256, kid: "k1")
        let (n, e) = try key.publicKey.getKeyPrimitives()
        jwk = #"{"kty":"RSA","n":"\#(b64(n))","e":"\#(b64(e))","kid":"k1","alg":"RS256"}"#
    }
    let now = Date()
    let claims = IDTokenClaims(issuer: issuer, subject: "alice", audience: [clientID], expiresAt: now.addingTimeInterval(3_600), issuedAt: now, nonce: nonce)
    return (try await keys.sign(claims, kid: "k1"), #"{"keys":[\#(jwk)]}"#)
}

nonisolated func run(authKit: Bool, algorithm: String, count: Int) async throws {
    let (token, jwks) = try await signedToken(algorithm)
    let metadata = AuthorizationServerMetadata(issuer: URL(string: issuer)!, tokenEndpoint: URL(string: "\(issuer)/token")!, jwksURI: URL(string: "\(issuer)/jwks")!)
    let client = OAuth2Client(provider: OAuth2Provider(metadata: metadata), clientID: clientID, transport: ClosureTransport { _ in AuthResponse(status: .ok, body: Data(jwks.utf8)) })
    let keys = try await JWTKeyCollection().add(jwksJSON: jwks)
    // Both warmed, whichever is counted, so that the same types are instantiated in either run.
    for _ in 0..<20 {
        _ = try await client.validateIDToken(token, nonce: nonce)
        _ = try await keys.verify(token, as: IDTokenClaims.self)
    }
    var subjects = 0
    if authKit {
        for _ in 0..<count { subjects += try await client.validateIDToken(token, nonce: nonce).subject.utf8.count }
    } else {
        for _ in 0..<count { subjects += try await keys.verify(token, as: IDTokenClaims.self).subject.utf8.count }
    }
    print(subjects)
}

// A synchronous main that waits for the work: with an async main, the main thread parks in
// libdispatch's signal wait, which valgrind 3.19 crashes on.
let finished = DispatchSemaphore(value: 0)
Task.detached { [arguments, count] in
    do {
        try await run(authKit: arguments[1] == "authkit", algorithm: arguments[2], count: count)
    } catch {
        FileHandle.standardError.write(Data("idtoken-driver: \(error)\n".utf8))
        exit(1)
    }
    finished.signal()
}
finished.wait()
exit(0)
