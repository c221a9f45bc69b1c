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
        let header = try Self.idTokenHeader(token)
        guard let alg = header.alg, Self.idTokenAlgorithms.contains(alg) else {
            throw Self.idTokenFailure("is signed with \(header.alg.map { "alg \($0)" } ?? "no alg"), which is not accepted")
        }
        let claims = try await verifiedClaims(token, header: header, jwksURI: jwksURI)
        guard claims.issuer == metadata.issuer.absoluteString else {
            throw Self.idTokenFailure("names the issuer \(claims.issuer), not \(metadata.issuer.absoluteString)")
        }
        guard claims.audience.contains(clientID) else { throw Self.idTokenFailure("is not for this client (aud)") }
        if claims.audience.count > 1 || claims.authorizedParty != nil {
            guard claims.authorizedParty == clientID else { throw Self.idTokenFailure("names other audiences and is not authorized for this client (azp)") }
        }
        let now = clock.now()
        let skew = TimeInterval(clockSkew.components.seconds)
        guard claims.expiresAt.addingTimeInterval(skew) > now else { throw Self.idTokenFailure("has expired (exp)") }
        guard claims.issuedAt.addingTimeInterval(-skew) <= now else { throw Self.idTokenFailure("was issued in the future (iat)") }
        if let nonce {
            guard claims.nonce == nonce else { throw Self.idTokenFailure("does not carry this authorization's nonce") }
        }
        return claims
    }

    /// The claims once the signature holds with the key the header names, used with that
    /// key's own algorithm; the keys fetched again once (within the cache's limits) for a key id
    /// the set lacks.
    private func verifiedClaims(_ token: String, header: (alg: String?, kid: String?), jwksURI: URL) async throws -> IDTokenClaims {
        let now = clock.now()
        var set = try await jwks.current(from: jwksURI, transport: transport, now: now)
        let kid = header.kid ?? set.soleKID
        guard let kid else {
            throw Self.idTokenFailure("names no key (kid) and the provider publishes several")
        }
        if set.algorithms[kid] == nil, let fresh = try await jwks.refreshed(from: jwksURI, transport: transport, now: now) {
            set = fresh
        }
        guard let algorithm = set.algorithms[kid] else {
            throw Self.idTokenFailure("is signed with a key the provider does not publish (its keys were fetched again, or at most a minute ago)")
        }
        guard header.alg == algorithm else {
            throw Self.idTokenFailure("says alg \(header.alg ?? "none"), but its key is for \(algorithm)")
        }
        do {
            return try await set.keys.verify(token, as: IDTokenClaims.self)
        } catch let error as JWTKit.JWTError {
            throw AuthError(code: .authorizationFailed, message: "the ID token's signature does not hold (\(error.errorType))", underlying: error)
        } catch {
            throw AuthError(code: .authorizationFailed, message: "the ID token is not a valid JWT: \(DecodingFailure(error))")
        }
    }

    /// The `alg` and `kid` of a compact JWS, read before anything else.
    static func idTokenHeader(_ token: String) throws -> (alg: String?, kid: String?) {
        struct Header: Decodable { let alg: String?; let kid: String? }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let data = AuthCore.JWT.base64URLDecode(parts[0]), let header = try? JSONDecoder().decode(Header.self, from: data) else {
            throw idTokenFailure("is not a compact JWS (three base64url parts with a JSON header)")
        }
        return (header.alg, header.kid)
    }

    static func idTokenFailure(_ what: String) -> AuthError {
        AuthError(code: .authorizationFailed, message: "the ID token \(what)")
    }
}
