public import Foundation
public import HTTPTypes

/// A client that acts as one account: the pipeline with that account's authentication, plus
/// sign-in and sign-out.
///
/// Built by ``AuthContainer/makeClient(for:strategy:)``. Clients of the same account share one
/// ``AccountSession``, so renewals are coordinated across them.
public struct AccountClient<Strategy: AuthStrategy>: Sendable {
    /// The account.
    public var account: AccountKey { session.account }
    /// The account's shared session.
    public let session: AccountSession<Strategy>
    /// The whole pipeline.
    public let client: AuthClient

    /// Creates an account client.
    public init(session: AccountSession<Strategy>, client: AuthClient) {
        self.session = session
        self.client = client
    }

    /// Stores the credential of a sign-in; requests use it from now on.
    public func signIn(_ credential: Strategy.Value) async throws { try await session.signIn(credential) }
    /// Removes the stored credential.
    public func signOut() async throws { try await session.signOut() }
    /// Sends a request as this account.
    public nonisolated(nonsending) func send(_ request: AuthRequest) async throws -> AuthResponse { try await client.send(request) }
    /// Sends a request built from its parts as this account.
    public nonisolated(nonsending) func send(_ method: HTTPRequest.Method, _ url: URL, headerFields: HTTPFields = HTTPFields(), body: Data = Data(), options: RequestOptions = .init()) async throws -> AuthResponse {
        try await client.send(method, url, headerFields: headerFields, body: body, options: options)
    }
    /// Sends a request as this account and decodes a 2xx JSON body.
    public nonisolated(nonsending) func json<T: Decodable>(_ type: T.Type, _ request: AuthRequest) async throws -> T { try await client.json(type, request) }
    /// Sends a request built from its parts as this account and decodes a 2xx JSON body.
    public nonisolated(nonsending) func json<T: Decodable>(_ type: T.Type, _ method: HTTPRequest.Method, _ url: URL, body: Data = Data(), headerFields: HTTPFields = HTTPFields()) async throws -> T {
        try await client.json(type, method, url, body: body, headerFields: headerFields)
    }
}
