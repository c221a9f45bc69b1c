// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Foundation
import JWTKit

extension OAuth2Client {
    /// The algorithms an ID token may be signed with.
    static let idTokenAlgorithms: Set<String> = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"]

    /// Validates an OpenID Connect ID token (OpenID Connect Core 1.0 §3.1.3.7).
    ///
    /// The signature is checked with the key the token names among the provider's keys (its
    /// `jwks_uri`: fetched once, again after a day, and again when the token names a key the set
    /// lacks, the provider having rotated, at most once a minute), with that key's own algorithm;
    /// `alg: none`, MAC algorithms and an `alg` other than the key's are refused. Then `iss` must
    /// be the provider's issuer exactly, `aud` must
    /// include this client and name no other unless `azp` is this client, `exp` must not have
    /// passed and `iat` must not be in the future (each within `clockSkew`), and `nonce` must be
    /// the one the authorization sent.
    ///
    /// ```swift
    /// let claims = try await app.validateIDToken(idToken, nonce: pending.nonce)
    /// print(claims.subject)
    /// ```
    /// - Throws: `AuthError` `.authorizationFailed` naming the check that failed;
    ///   `.misconfigured` when the provider publishes no keys; the key fetch's errors.
    public func validateIDToken(_ token: String, nonce: String?, clockSkew: Duration = .seconds(60)) async throws -> IDTokenClaims {
        let metadata = try await provider.metadata()
        guard let jwksURI = metadata.jwksURI else {
            throw AuthError(code: .misconfigured, message: "the provider \(metadata.issuer.absoluteString) publishes no keys (jwks_uri): its ID tokens cannot be checked")
        }
        let jws = try CompactJWS(token)
        guard let alg = jws.alg, Self.idTokenAlgorithms.contains(alg) else {
            throw Self.idTokenFailure("is signed with \(jws.alg.map { "alg \($0)" } ?? "no alg"), which is not accepted")
        }
        let now = clock.now()
        let claims = try await verifiedClaims(jws, jwksURI: jwksURI, now: now)
        guard claims.issuer == metadata.issuer.absoluteString else {
            throw Self.idTokenFailure("names the issuer \(claims.issuer), not \(metadata.issuer.absoluteString)")
        }
        guard claims.audience.contains(clientID) else { throw Self.idTokenFailure("is not for this client (aud)") }
        if claims.audience.count > 1 || claims.authorizedParty != nil {
            guard claims.authorizedParty == clientID else { throw Self.idTokenFailure("names other audiences and is not authorized for this client (azp)") }
        }
        let skew = TimeInterval(clockSkew.components.seconds)
        guard claims.expiresAt.addingTimeInterval(skew) > now else { throw Self.idTokenFailure("has expired (exp)") }
        guard claims.issuedAt.addingTimeInterval(-skew) <= now else { throw Self.idTokenFailure("was issued in the future (iat)") }
        if let notBefore = claims.notBefore {
            guard notBefore.addingTimeInterval(-skew) <= now else { throw Self.idTokenFailure("is not valid yet (nbf)") }
        }
        if let nonce {
            guard claims.nonce == nonce else { throw Self.idTokenFailure("does not carry this authorization's nonce") }
        }
        return claims
    }

    /// Whether to take an ID token a refresh answered with (OpenID Connect Core §12.2): not when
    /// it cannot be validated as any ID token. It must name the same issuer, user and audience
    /// as `signedIn`, the sign-in's (read without checking its signature again: it was checked
    /// when it came, and may have expired since).
    /// - Throws: `AuthError` `.reauthenticationRequired` when it names another issuer, user or
    ///   audience; `CancellationError`.
    func acceptsRefreshedIDToken(_ token: String, signedIn: String?) async throws -> Bool {
        let claims: IDTokenClaims
        do {
            claims = try await validateIDToken(token, nonce: nil)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            return false
        }
        guard let signedIn, let jws = try? CompactJWS(signedIn),
              let before = try? JSONDecoder().decode(IDTokenClaims.self, from: jws.payload) else { return true }
        guard claims.issuer == before.issuer, claims.subject == before.subject, Set(claims.audience) == Set(before.audience) else {
            throw AuthError.reauthenticationRequired(nil, reason: "the ID token from the refresh names another issuer, user or audience than the sign-in's (OpenID Connect Core §12.2)")
        }
        return true
    }

    /// The claims once the signature holds with the key the header names (the provider's sole
    /// key for a header that names none), used with that key's own algorithm. The keys are
    /// fetched again once (within the cache's limits) when the provider may have rotated them
    /// since: for a key id the set lacks, and for a token that names no key and that the sole key
    /// does not sign. The token is decoded once: the signature is checked on its signing input as
    /// it came, then the claims are decoded.
    private func verifiedClaims(_ jws: CompactJWS, jwksURI: URL, now: Date) async throws -> IDTokenClaims {
        var set = try await jwks.current(from: jwksURI, transport: transport, now: now)
        if Self.mayBeRotated(jws, set), let fresh = try await jwks.refreshed(from: jwksURI, transport: transport, now: now) {
            set = fresh
        }
        guard let kid = jws.kid ?? set.soleKID else {
            throw Self.idTokenFailure("names no key (kid) and the provider publishes several")
        }
        guard let key = set.keys[kid] else {
            throw Self.idTokenFailure("is signed with a key the provider does not publish (its keys were fetched again, or at most a minute ago)")
        }
        guard jws.alg == key.algorithm else {
            throw Self.idTokenFailure("says alg \(jws.alg ?? "none"), but its key is for \(key.algorithm)")
        }
        let holds: Bool
        do {
            holds = try key.verifier.verify(jws.signature, signs: jws.signingInput)
        } catch {
            throw AuthError(code: .authorizationFailed, message: "the ID token's signature does not hold (\(DecodingFailure(error)))", underlying: error)
        }
        guard holds else { throw AuthError(code: .authorizationFailed, message: "the ID token's signature does not hold") }
        do {
            return try JSONDecoder().decode(IDTokenClaims.self, from: jws.payload)
        } catch {
            throw AuthError(code: .authorizationFailed, message: "the ID token is not a valid JWT: \(DecodingFailure(error))")
        }
    }

    /// Whether `jws`'s key may have been published after `set` was fetched: the set lacks the key
    /// it names, or it names none and the set's sole key does not sign it (a provider with one
    /// key that rotated it).
    private static func mayBeRotated(_ jws: CompactJWS, _ set: JWKSCache.KeySet) -> Bool {
        if let kid = jws.kid { return set.keys[kid] == nil }
        guard let sole = set.soleKID.flatMap({ set.keys[$0] }) else { return false }
        return sole.algorithm != jws.alg || (try? sole.verifier.verify(jws.signature, signs: jws.signingInput)) != true
    }

    /// A compact JWS split once: its header's `alg` and `kid`, its signing input, payload and
    /// signature.
    struct CompactJWS {
        let alg: String?
        let kid: String?
        let signingInput: Data
        let payload: Data
        let signature: Data

        /// Splits `token` at its two dots, found among its UTF-8 bytes: the base64url alphabet is
        /// ASCII, so a token is bytes, and splitting it as `Character`s (grapheme clusters) cost
        /// more than the RSA signature check.
        init(_ token: String) throws {
            struct Header: Decodable { let alg: String?; let kid: String? }
            let bytes = Array(token.utf8)
            let dot = UInt8(ascii: ".")
            guard let first = bytes.firstIndex(of: dot), let second = bytes[(first + 1)...].firstIndex(of: dot), !bytes[(second + 1)...].contains(dot),
                  let header = Base64URL.decode(utf8: bytes[..<first]).flatMap({ try? JSONDecoder().decode(Header.self, from: $0) }),
                  let payload = Base64URL.decode(utf8: bytes[(first + 1)..<second]), let signature = Base64URL.decode(utf8: bytes[(second + 1)...]) else {
                throw OAuth2Client.idTokenFailure("is not a compact JWS (three base64url parts with a JSON header)")
            }
            (alg, kid) = (header.alg, header.kid)
            signingInput = Data(bytes[..<second])
            self.payload = payload
            self.signature = signature
        }
    }

    static func idTokenFailure(_ what: String) -> AuthError {
        AuthError(code: .authorizationFailed, message: "the ID token \(what)")
    }
}
