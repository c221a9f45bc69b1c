import Foundation
import HTTPTypes

/// Puts the account's credential on requests to allowed hosts, renewing it when due and once
/// more when the server rejects it.
///
/// Requests to hosts the strategy does not allow pass through untouched. When a response is an
/// authentication failure, the request is sent once more with a newer credential: the current
/// one if another request already renewed it, or a renewed one (one renewal for all concurrent
/// requests, see ``AccountSession``).
public struct AuthenticationMiddleware<Strategy: AuthStrategy>: Middleware {
    /// The account's session.
    public let session: AccountSession<Strategy>

    /// Creates the middleware for one account.
    public init(session: AccountSession<Strategy>) {
        self.session = session
    }

    /// Authorizes, sends, and on an authentication failure renews and retries once.
    public func intercept(_ request: AuthRequest, next: @Sendable (AuthRequest) async throws -> AuthResponse) async throws -> AuthResponse {
        let strategy = session.strategy
        guard strategy.allowedHosts.allows(request) else { return try await next(request) }
        let credential: Strategy.Value
        if let ready = session.readyCredential() {
            credential = ready
        } else {
            credential = try await session.credentialForRequest()
        }
        var authorized = request
        strategy.authorize(&authorized, with: credential)
        let response = try await next(authorized)
        observeDate(response)
        guard strategy.isAuthenticationFailure(response, for: authorized) else { return response }
        let fresh = try await session.renew(from: credential)
        var retry = request
        strategy.authorize(&retry, with: fresh)
        let second = try await next(retry)
        observeDate(second)
        return second
    }

    private func observeDate(_ response: AuthResponse) {
        guard let value = response.head.headerFields[.date], let date = HTTPDate.parse(value) else { return }
        session.observeServerDate(date, receivedAt: session.clock.now())
    }
}
