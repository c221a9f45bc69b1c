public import AuthCore
public import Foundation

/// What a cookie session is renewed with: the sign-in credentials, kept in the vault, and when
/// the current session was established.
///
/// The session cookies themselves live in the account's ``CookieJar``; this credential changes
/// on every sign-in (its ``establishedAt``), which is how concurrent requests that saw the old
/// session tell that another request already signed in again.
public struct CookieSessionCredential: Credential {
    /// `cookie-session`.
    public static let kind = "cookie-session"
    /// The user name posted to the login endpoint.
    public var username: String
    /// The password posted to the login endpoint.
    public var password: Secret
    /// When the current session was established.
    public var establishedAt: Date

    /// Creates a credential.
    public init(username: String, password: String, establishedAt: Date) {
        self.username = username
        self.password = Secret(password)
        self.establishedAt = establishedAt
    }

    /// A session has no expiry known in advance; the server says when it ended.
    public var expiresAt: Date? { nil }

    /// Nothing: the cookie middleware attaches the session cookies, the strategy the CSRF header.
    public func authorize(_ request: inout AuthRequest) {}

    /// User name and session start; never the password.
    public var description: String {
        "CookieSessionCredential(username: \(username), password: <redacted>, establishedAt: \(establishedAt))"
    }
}
