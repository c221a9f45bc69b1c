public import Foundation
import HTTPTypes

/// Renews tokens with the OAuth 2.0 `refresh_token` grant (RFC 6749 §6).
///
/// Posts `grant_type=refresh_token` form-encoded to the token endpoint, authenticating the
/// client as configured. Keeps the old refresh token when the response omits one. An
/// `invalid_grant` error means the refresh token is dead: it throws
/// `AuthError.reauthenticationRequired`. `invalid_client`, `unauthorized_client`,
/// `unsupported_grant_type` and `invalid_scope` mean the client is configured wrongly: they throw
/// `AuthError.misconfigured`, which no retry fixes. Other errors are `AuthError.renewalFailed`
/// carrying the ``OAuth2Error``.
public struct OAuth2RefreshTokenRefresher: TokenRefresher {
    /// How the client authenticates to the token endpoint (RFC 6749 §2.3).
    public enum ClientAuthentication: Sendable, Equatable {
        /// HTTP Basic with the client id and secret.
        case clientSecretBasic(secret: Secret)
        /// `client_id` and `client_secret` in the form body.
        case clientSecretPost(secret: Secret)
        /// A public client: `client_id` in the form body only.
        case none
    }

    /// The token endpoint.
    public let tokenEndpoint: URL
    /// The client id.
    public let clientID: String
    /// How the client authenticates.
    public let authentication: ClientAuthentication
    /// Scopes to ask for, if narrower than the original grant.
    public let scope: String?
    private let transport: any Transport
    private let clock: any AuthClock

    /// Creates a refresher.
    /// - Parameters:
    ///   - transport: Sends the token request. Pass the plain transport, not an authenticated
    ///     client, so that the refresh does not go through the authentication middleware.
    public init(tokenEndpoint: URL, clientID: String, authentication: ClientAuthentication = .none, scope: String? = nil, transport: any Transport, clock: any AuthClock = SystemClock()) {
        self.tokenEndpoint = tokenEndpoint
        self.clientID = clientID
        self.authentication = authentication
        self.scope = scope
        self.transport = transport
        self.clock = clock
    }

    /// Calls the token endpoint.
    public func refresh(_ tokens: BearerTokenSet) async throws -> BearerTokenSet {
        guard let refreshToken = tokens.refreshToken else {
            throw AuthError.reauthenticationRequired(nil, reason: "there is no refresh token")
        }
        var form = [("grant_type", "refresh_token"), ("refresh_token", refreshToken.reveal)]
        if let scope { form.append(("scope", scope)) }
        var request = try AuthRequest(method: .post, url: tokenEndpoint)
        request.head.headerFields[.contentType] = "application/x-www-form-urlencoded"
        request.head.headerFields[.accept] = "application/json"
        switch authentication {
        case .clientSecretBasic(let secret):
            let pair = "\(QueryItems.formEncode(clientID)):\(QueryItems.formEncode(secret.reveal))"
            request.head.headerFields[.authorization] = "Basic " + Data(pair.utf8).base64EncodedString()
        case .clientSecretPost(let secret):
            form += [("client_id", clientID), ("client_secret", secret.reveal)]
        case .none:
            form.append(("client_id", clientID))
        }
        request.body = Data(form.map { "\(QueryItems.formEncode($0))=\(QueryItems.formEncode($1))" }.joined(separator: "&").utf8)
        let response = try await transport.send(request)
        let status = response.status.code
        guard (200..<300).contains(status) else { throw Self.error(from: response) }
        return try TokenResponse.parse(response.body).tokenSet(issuedAt: TokenResponse.issuedAt(response, fallback: clock.now()), previousRefreshToken: refreshToken.reveal)
    }

    /// RFC 6749 §5.2 errors that say the client, not the grant, is wrong.
    static let configurationErrors: Set<String> = ["invalid_client", "unauthorized_client", "unsupported_grant_type", "invalid_scope"]

    static func error(from response: AuthResponse) -> AuthError {
        let status = response.status.code
        guard var oauth = try? JSONDecoder().decode(OAuth2Error.self, from: response.body) else {
            return AuthError(code: .renewalFailed, message: "the token endpoint answered \(status) without an OAuth 2.0 error body", status: status)
        }
        oauth.status = status
        if oauth.code == "invalid_grant" {
            return AuthError.reauthenticationRequired(nil, reason: "the server rejected the refresh token (invalid_grant)", underlying: oauth)
        }
        if configurationErrors.contains(oauth.code) {
            return AuthError(code: .misconfigured, message: "the token endpoint rejected the client configuration (\(oauth.code)): check the client id, its secret or key, its allowed grants and scopes", status: status, underlying: oauth)
        }
        return AuthError(code: .renewalFailed, message: "the token endpoint answered \(status) \(oauth.code)", status: status, underlying: oauth)
    }
}
