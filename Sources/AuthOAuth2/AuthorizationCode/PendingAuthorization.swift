public import AuthCore
public import Foundation

/// An authorization in progress: the URL to open in the user's browser, and what completing it
/// needs (the state to check, the PKCE verifier, the redirect URI).
///
/// `Codable`, so that a tool can keep it between starting and completing; the verifier is a
/// ``Secret`` and its `description` shows only the URL's origin and the state's length.
public struct PendingAuthorization: Sendable, Equatable, Codable, CustomStringConvertible {
    /// The authorization request to open: the provider's authorization endpoint with the
    /// client id, redirect URI, scopes, `state`, `nonce` and the PKCE challenge.
    public let url: URL
    /// The `state` the answer must carry back.
    public let state: String
    /// The OpenID Connect `nonce` the ID token must carry, when one was sent.
    public let nonce: String?
    /// The PKCE proof.
    public let pkce: PKCE
    /// Where the provider sends the browser back.
    public let redirectURI: URL
    /// The issuer whose answer this waits for (RFC 9207).
    public let issuer: URL

    /// Creates the record; ``OAuth2Client/startAuthorization(redirectURI:scopes:nonce:parameters:)``
    /// makes one.
    public init(url: URL, state: String, nonce: String?, pkce: PKCE, redirectURI: URL, issuer: URL) {
        self.url = url
        self.state = state
        self.nonce = nonce
        self.pkce = pkce
        self.redirectURI = redirectURI
        self.issuer = issuer
    }

    /// The authorization endpoint and the redirect URI, never the verifier.
    public var description: String {
        "PendingAuthorization(\(url.scheme ?? "?")://\(url.host ?? "?")\(url.path) → \(redirectURI.absoluteString))"
    }
}
