import AuthCore
public import Foundation
public import JWTKit

/// `private_key_jwt` client authentication (RFC 7523 §2.2, OpenID Connect Core §9): instead of
/// a shared secret, each request to the provider carries a short-lived JWT signed with the
/// client's private key (ES256 or RS256); the provider holds only the public key.
///
/// Each assertion has `iss` and `sub` = the client id, `aud` = the endpoint it is sent to
/// (or the ``audience`` given), a random `jti` (so a captured one cannot be replayed), `iat`,
/// and `exp` one minute later.
///
/// ```swift
/// let key = ES256PrivateKey()
/// let signer = await PrivateKeyJWT(es256: key, kid: "billing-2026")
/// let client = OAuth2Client(provider: oauthProvider, clientID: "billing", authentication: .privateKeyJWT(signer), transport: transport)
/// ```
public struct PrivateKeyJWT: ClientAssertionSigner, CustomStringConvertible, CustomReflectable {
    private let keys: JWTKeyCollection
    /// The key id the provider knows the public key by.
    public let kid: String
    /// The algorithm: `ES256` or `RS256`.
    public let algorithm: String
    /// A fixed audience (the provider's issuer, say) instead of each endpoint's URL.
    public let audience: URL?
    /// How long an assertion is valid.
    public let lifetime: TimeInterval
    private let now: @Sendable () -> Date

    /// Signs with a P-256 key (ES256).
    public init(es256 key: ES256PrivateKey, kid: String, audience: URL? = nil, lifetime: TimeInterval = 60, now: @escaping @Sendable () -> Date = { Date() }) async {
        let keys = JWTKeyCollection()
        await keys.add(ecdsa: key, kid: JWKIdentifier(string: kid))
        self.init(keys: keys, kid: kid, algorithm: "ES256", audience: audience, lifetime: lifetime, now: now)
    }

    /// Signs with an RSA key (RS256, 2048 bits or more).
    public init(rs256 key: Insecure.RSA.PrivateKey, kid: String, audience: URL? = nil, lifetime: TimeInterval = 60, now: @escaping @Sendable () -> Date = { Date() }) async {
        let keys = JWTKeyCollection()
        await keys.add(rsa: key, digestAlgorithm: .sha256, kid: JWKIdentifier(string: kid))
        self.init(keys: keys, kid: kid, algorithm: "RS256", audience: audience, lifetime: lifetime, now: now)
    }

    private init(keys: JWTKeyCollection, kid: String, algorithm: String, audience: URL?, lifetime: TimeInterval, now: @escaping @Sendable () -> Date) {
        self.keys = keys
        self.kid = kid
        self.algorithm = algorithm
        self.audience = audience
        self.lifetime = lifetime
        self.now = now
    }

    /// A fresh assertion.
    public func assertion(clientID: String, audience endpoint: URL) async throws -> String {
        let issued = now()
        let claims = ClientAssertionClaims(
            iss: clientID, sub: clientID, aud: (audience ?? endpoint).absoluteString, jti: PKCE.randomToken(24),
            iat: Int(issued.timeIntervalSince1970), exp: Int(issued.addingTimeInterval(lifetime).timeIntervalSince1970))
        return try await keys.sign(claims, kid: JWKIdentifier(string: kid))
    }

    /// The key id and algorithm; never the key.
    public var description: String { "PrivateKeyJWT(\(algorithm), kid \(kid))" }
    /// The key id and algorithm only.
    public var customMirror: Mirror { Mirror(self, children: ["kid": kid, "algorithm": algorithm], displayStyle: .struct) }
}

/// The claims of an RFC 7523 client assertion.
struct ClientAssertionClaims: JWTPayload {
    let iss: String
    let sub: String
    let aud: String
    let jti: String
    let iat: Int
    let exp: Int

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
