public import Foundation
import HTTPTypes

/// An OAuth 2.0 style token set: access token, optional refresh token, expiry and scope.
///
/// ```swift
/// let tokens = BearerTokenSet(accessToken: "eyJ…", refreshToken: "r1", expiresAt: now + 3600)
/// ```
/// When the token response gave no expiry, ``expiresAt`` falls back to the access token's JWT
/// `exp` claim, if the access token is a JWT.
public struct BearerTokenSet: Credential {
    /// `bearer`.
    public static let kind = "bearer"
    /// The access token.
    public var accessToken: Secret
    /// The refresh token, if the server issued one.
    public var refreshToken: Secret?
    /// When the access token expires: the token response's expiry, or else the access token's
    /// JWT `exp` claim (read once, when the set is created).
    public var expiresAt: Date?
    /// Granted scopes, space separated.
    public var scope: String?
    /// The token type; `Bearer` unless the server said otherwise.
    public var tokenType: String
    /// The OpenID Connect id token, if any.
    public var idToken: Secret?

    /// Creates a token set.
    public init(
        accessToken: String, refreshToken: String? = nil, expiresAt: Date? = nil,
        scope: String? = nil, tokenType: String = "Bearer", idToken: String? = nil
    ) {
        self.accessToken = Secret(accessToken)
        self.refreshToken = refreshToken.map(Secret.init)
        self.expiresAt = expiresAt ?? (try? JWT.decode(accessToken))?.expiresAt
        self.scope = scope
        self.tokenType = tokenType
        self.idToken = idToken.map(Secret.init)
    }

    /// Sets `Authorization: Bearer <token>`.
    public func authorize(_ request: inout AuthRequest) {
        let type = tokenType == "Bearer" || tokenType.lowercased() == "bearer" ? "Bearer " : tokenType + " "
        request.head.headerFields[.authorization] = type + accessToken.reveal
    }

    /// Type, expiry and scope; never a token.
    public var description: String {
        "BearerTokenSet(tokenType: \(tokenType), expiresAt: \(expiresAt.map { "\($0)" } ?? "none"), scope: \(scope ?? "none"), refreshToken: \(refreshToken == nil ? "none" : "<redacted>"))"
    }
}
