// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthOAuth2
import AuthTestServer
import AuthTesting
import Crypto
import CryptoExtras
import Foundation
import JWTKit
import Testing

/// ID token validation (OpenID Connect Core §3.1.3.7) with keys served over real HTTP by
/// AuthTestServer: ES256, RS256 and EdDSA accepted; every check refuses what it must; a rotated
/// key found by one refetch of the JWKS, an unknown one refused after it.
@Suite struct IDTokenValidationTests {
    static let issuer = "https://issuer.example"
    static let clientID = "app"

    /// Three signing keys, the collection that signs with them and their public JWKS.
    struct Keys {
        let signing = JWTKeyCollection()
        let es = ES256PrivateKey()
        let other = ES256PrivateKey()
        let ed = Curve25519.Signing.PrivateKey()
        let rsa: JWTKit.Insecure.RSA.PrivateKey

        init() async throws {
            rsa = try JWTKit.Insecure.RSA.PrivateKey(backing: _RSA.Signing.PrivateKey(keySize: .bits2048))
            await signing.add(ecdsa: es, kid: "k-es")
            await signing.add(rsa: rsa, digestAlgorithm: .sha256, kid: "k-rs")
            await signing.add(eddsa: EdDSA.PrivateKey(backing: ed), kid: "k-ed")
            await signing.add(ecdsa: other, kid: "k-new")
        }

        /// The JWKS with the keys of `kids`.
        func jwks(_ kids: [String]) throws -> String {
            var keys: [String] = []
            if kids.contains("k-es"), let p = es.publicKey.parameters {
                keys.append(#"{"kty":"EC","crv":"P-256","x":"\#(p.x)","y":"\#(p.y)","kid":"k-es","alg":"ES256","use":"sig"}"#)
            }
            if kids.contains("k-new"), let p = other.publicKey.parameters {
                keys.append(#"{"kty":"EC","crv":"P-256","x":"\#(p.x)","y":"\#(p.y)","kid":"k-new","alg":"ES256","use":"sig"}"#)
            }
            if kids.contains("k-rs") {
                let (n, e) = try rsa.publicKey.getKeyPrimitives()
                keys.append(#"{"kty":"RSA","n":"\#(Self.b64(n))","e":"\#(Self.b64(e))","kid":"k-rs","alg":"RS256","use":"sig"}"#)
            }
            if kids.contains("k-ed") {
                keys.append(#"{"kty":"OKP","crv":"Ed25519","x":"\#(Self.b64(ed.publicKey.rawRepresentation))","kid":"k-ed","alg":"EdDSA","use":"sig"}"#)
            }
            return #"{"keys":[\#(keys.joined(separator: ","))]}"#
        }

        static func b64(_ data: Data) -> String {
            Base64URL.encode(data)
        }

        func sign(_ claims: IDTokenClaims, kid: String) async throws -> String {
            try await signing.sign(claims, kid: JWKIdentifier(string: kid))
        }
    }

    /// A client of a provider whose keys AuthTestServer serves at `/jwks` (`responses` answers,
    /// one per fetch), on a clock at `now`.
    static func client(_ h: Harness, responses: [String], clock: ManualClock) -> OAuth2Client {
        for body in responses {
            h.server.faults.inject(.response(status: 200, headers: ["Content-Type": "application/json"], body: body), path: "/jwks")
        }
        let metadata = AuthorizationServerMetadata(issuer: URL(string: issuer)!, tokenEndpoint: URL(string: "\(issuer)/token")!, jwksURI: h.url("jwks"))
        return OAuth2Client(provider: OAuth2Provider(metadata: metadata), clientID: clientID, transport: h.transport, clock: clock)
    }

    static func claims(_ clock: ManualClock, audience: [String] = [clientID], nonce: String? = "n-1", lifetime: TimeInterval = 300, issuedIn: TimeInterval = 0, azp: String? = nil, issuer: String = issuer) -> IDTokenClaims {
        IDTokenClaims(issuer: issuer, subject: "alice", audience: audience, expiresAt: clock.now().addingTimeInterval(lifetime), issuedAt: clock.now().addingTimeInterval(issuedIn), nonce: nonce, authorizedParty: azp)
    }

    @Test(arguments: ["k-es", "k-rs", "k-ed"])
    func aGoodTokenOfEachAlgorithmIsAccepted(kid: String) async throws {
        try await Harness.run { h in
            let keys = try await Keys(), clock = ManualClock()
            let app = Self.client(h, responses: [try keys.jwks(["k-es", "k-rs", "k-ed"])], clock: clock)
            let claims = try await app.validateIDToken(keys.sign(Self.claims(clock), kid: kid), nonce: "n-1")
            #expect(claims.subject == "alice" && claims.audience == [Self.clientID])
            // The keys are kept: a second token needs no fetch.
            _ = try await app.validateIDToken(keys.sign(Self.claims(clock), kid: kid), nonce: "n-1")
            #expect(h.server.counters.requests(path: "/jwks") == 1)
        }
    }

    /// Issue 52: a JWKS of 20,000 RSA keys was accepted (2 s, 121 MiB). A set over the key
    /// limit (100 by default) is refused, as is one larger than the answer limit.
    @Test func aKeySetOverTheLimitsIsRefused() async throws {
        try await Harness.run { h in
            let keys = try await Keys(), clock = ManualClock()
            let one = try keys.jwks(["k-es"]).dropFirst(#"{"keys":["#.count).dropLast(2)
            let many = #"{"keys":["# + Array(repeating: String(one), count: 101).joined(separator: ",") + "]}"
            let app = Self.client(h, responses: [many], clock: clock)
            let error = await #expect(throws: AuthError.self) { try await app.validateIDToken(keys.sign(Self.claims(clock), kid: "k-es"), nonce: "n-1") }
            #expect(error?.code == .responseTooLarge)
            #expect(error?.message.contains("101 keys") == true)

            let huge = #"{"keys":[],"padding":""# + String(repeating: "x", count: 2 << 20) + #""}"#
            let again = Self.client(h, responses: [huge], clock: clock)
            let tooLarge = await #expect(throws: AuthError.self) { try await again.validateIDToken(keys.sign(Self.claims(clock), kid: "k-es"), nonce: "n-1") }
            #expect(tooLarge?.code == .responseTooLarge)
            #expect(tooLarge?.message.contains("key set") == true)
        }
    }

    @Test func everyCheckRefusesWhatItMust() async throws {
        try await Harness.run { h in
            let keys = try await Keys(), clock = ManualClock()
            let app = Self.client(h, responses: [try keys.jwks(["k-es"])], clock: clock)
            func refusal(_ token: String, nonce: String? = "n-1") async -> String? {
                do { _ = try await app.validateIDToken(token, nonce: nonce); return nil } catch { return (error as? AuthError).map { "\($0.code): \($0.message)" } ?? "\(error)" }
            }
            let good = try await keys.sign(Self.claims(clock), kid: "k-es")
            #expect(await refusal(good) == nil)
            // A signature by another key under the published key's id, and a good token's
            // header and claims with another token's signature.
            let impostor = JWTKeyCollection()
            await impostor.add(ecdsa: keys.other, kid: "k-es")
            #expect(await refusal(try await impostor.sign(Self.claims(clock), kid: "k-es"))?.contains("signature") == true)
            let parts = good.split(separator: "."), otherParts = try await keys.sign(Self.claims(clock, nonce: "n-2"), kid: "k-es").split(separator: ".")
            #expect(await refusal("\(parts[0]).\(parts[1]).\(otherParts[2])")?.contains("signature") == true)
            // The header asks for another algorithm than the key's.
            let header = Keys.b64(Data(#"{"alg":"ES384","kid":"k-es","typ":"JWT"}"#.utf8))
            #expect(await refusal("\(header).\(parts[1]).\(parts[2])")?.contains("its key is for ES256") == true)
            #expect(await refusal(try await keys.sign(Self.claims(clock, audience: ["someone-else"]), kid: "k-es"))?.contains("aud") == true)
            #expect(await refusal(try await keys.sign(Self.claims(clock, audience: [Self.clientID, "other"]), kid: "k-es"))?.contains("azp") == true)
            #expect(await refusal(try await keys.sign(Self.claims(clock, audience: [Self.clientID, "other"], azp: Self.clientID), kid: "k-es")) == nil)
            #expect(await refusal(try await keys.sign(Self.claims(clock, lifetime: -61), kid: "k-es"))?.contains("expired") == true)
            #expect(await refusal(try await keys.sign(Self.claims(clock, lifetime: -30), kid: "k-es")) == nil)  // within the 60 s skew
            #expect(await refusal(try await keys.sign(Self.claims(clock, issuedIn: 120), kid: "k-es"))?.contains("future") == true)
            var early = Self.claims(clock)
            early.notBefore = clock.now().addingTimeInterval(3_600)
            #expect(await refusal(try await keys.sign(early, kid: "k-es"))?.contains("nbf") == true)
            early.notBefore = clock.now().addingTimeInterval(30)  // within the 60 s skew
            #expect(await refusal(try await keys.sign(early, kid: "k-es")) == nil)
            #expect(await refusal(good, nonce: "n-2")?.contains("nonce") == true)
            #expect(await refusal(try await keys.sign(Self.claims(clock, nonce: nil), kid: "k-es"))?.contains("nonce") == true)
            #expect(await refusal(try await keys.sign(Self.claims(clock, issuer: "https://evil.example"), kid: "k-es"))?.contains("issuer") == true)
            // alg none: the signature part empty, whatever the claims say.
            let none = "\(Keys.b64(Data(#"{"alg":"none","typ":"JWT"}"#.utf8))).\(parts[1])."
            #expect(await refusal(none)?.contains("alg none") == true)
            // A MAC with a key anyone might guess is not an ID token signature here.
            let hmac = JWTKeyCollection()
            await hmac.add(hmac: HMACKey(from: String(repeating: "k", count: 32)), digestAlgorithm: .sha256, kid: "k-es")
            #expect(await refusal(try await hmac.sign(Self.claims(clock), kid: "k-es"))?.contains("HS256") == true)
            #expect(await refusal("not.a.jwt")?.contains("compact JWS") == true)
            // Not three base64url parts: two, four (a trailing dot), none, and a part starting
            // with a combining accent (one Character with the dot before it).
            for malformed in ["\(parts[0]).\(parts[1])", "\(good).", "", "\(parts[0]).\(parts[1]).\u{301}\(parts[2])"] {
                #expect(await refusal(malformed)?.contains("compact JWS") == true, "\(malformed.prefix(12))")
            }
        }
    }

    @Test func aRotatedKeyIsFetchedOnceAndAnUnknownOneRefusedAfterIt() async throws {
        try await Harness.run { h in
            let keys = try await Keys(), clock = ManualClock()
            let app = Self.client(h, responses: [try keys.jwks(["k-es"]), try keys.jwks(["k-es", "k-new"]), try keys.jwks(["k-es", "k-new"])], clock: clock)
            _ = try await app.validateIDToken(keys.sign(Self.claims(clock), kid: "k-es"), nonce: "n-1")
            // The provider rotated: one more fetch finds the new key.
            clock.advance(by: 61)
            _ = try await app.validateIDToken(keys.sign(Self.claims(clock), kid: "k-new"), nonce: "n-1")
            #expect(h.server.counters.requests(path: "/jwks") == 2)
            // A key the provider never published, a few seconds later: refused, no fetch (at most
            // one a minute, whatever key ids tokens make up).
            clock.advance(by: 5)
            let unknown = { try await app.validateIDToken(keys.sign(Self.claims(clock), kid: "k-rs"), nonce: "n-1") }
            await #expect { try await unknown() } throws: { ($0 as? AuthError)?.message.contains("does not publish") == true }
            #expect(h.server.counters.requests(path: "/jwks") == 2)
            // A minute on: refused after exactly one more fetch.
            clock.advance(by: 60)
            await #expect { try await unknown() } throws: { ($0 as? AuthError)?.message.contains("does not publish") == true }
            #expect(h.server.counters.requests(path: "/jwks") == 3)
        }
    }

    /// A provider with one key and tokens that name none (OpenID Connect Core §10.1 allows it)
    /// rotates that key: the next token, which the kept key does not sign, is checked after one
    /// more fetch of the keys, not refused until the kept set's day is over.
    @Test func aRotatedSoleKeyIsFetchedForATokenThatNamesNoKey() async throws {
        try await Harness.run { h in
            let clock = ManualClock()
            let first = P256.Signing.PrivateKey(), second = P256.Signing.PrivateKey()
            let app = Self.client(h, responses: [Self.soleKeySet(first), Self.soleKeySet(second), Self.soleKeySet(second)], clock: clock)
            let byFirst = try Self.signedWithoutKID(Self.claims(clock), by: first)
            #expect(try await app.validateIDToken(byFirst, nonce: "n-1").subject == "alice")
            clock.advance(by: 61)
            let bySecond = try Self.signedWithoutKID(Self.claims(clock), by: second)
            #expect(try await app.validateIDToken(bySecond, nonce: "n-1").subject == "alice")
            #expect(h.server.counters.requests(path: "/jwks") == 2)
            // A token the new key does not sign either: refused, and no fetch within the minute.
            let stale = try Self.signedWithoutKID(Self.claims(clock), by: first)
            await #expect { try await app.validateIDToken(stale, nonce: "n-1") } throws: {
                ($0 as? AuthError)?.message.contains("signature does not hold") == true
            }
            #expect(h.server.counters.requests(path: "/jwks") == 2)
        }
    }

    /// A JWKS of `key` alone, with no `kid`.
    static func soleKeySet(_ key: P256.Signing.PrivateKey) -> String {
        let point = key.publicKey.x963Representation  // 0x04, x, y
        return #"{"keys":[{"kty":"EC","crv":"P-256","x":"\#(Keys.b64(point[1..<33]))","y":"\#(Keys.b64(point[33...]))","alg":"ES256","use":"sig"}]}"#
    }

    /// An ES256 token of `claims` signed by `key`, its header naming no key.
    static func signedWithoutKID(_ claims: IDTokenClaims, by key: P256.Signing.PrivateKey) throws -> String {
        let input = Keys.b64(Data(#"{"alg":"ES256","typ":"JWT"}"#.utf8)) + "." + Keys.b64(try JSONEncoder().encode(claims))
        return input + "." + Keys.b64(try key.signature(for: Data(input.utf8)).rawRepresentation)
    }

    /// A JWKS with an encryption key, an unknown key type and one kid-less key among good ones:
    /// the good ones are used, the rest left out.
    @Test func unusableKeysInTheSetAreLeftOut() async throws {
        try await Harness.run { h in
            let keys = try await Keys(), clock = ManualClock()
            var set = try keys.jwks(["k-es"])
            set = set.replacingOccurrences(of: #"{"keys":["#, with: #"{"keys":[{"kty":"oct","k":"c2VjcmV0","kid":"k-mac"},{"kty":"EC","crv":"P-256","x":"AA","y":"AA","use":"enc","kid":"k-enc"},"#)
            let app = Self.client(h, responses: [set], clock: clock)
            #expect(try await app.validateIDToken(keys.sign(Self.claims(clock), kid: "k-es"), nonce: "n-1").subject == "alice")
        }
    }
}
