// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

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
    /// Whether this account is signed in: a credential is stored for it, whatever its expiry.
    ///
    /// The one call to make at launch, to choose between the app and its sign-in screen. An
    /// expired credential still counts: the next request renews it. A store that cannot be read
    /// throws rather than answering false, so that a locked keychain or a busy database never
    /// looks like a signed-out user.
    ///
    /// ```swift
    /// if try await client.isSignedIn() {
    ///     print(try await client.send(.get, url).status)
    /// } else {
    ///     showSignIn(client.account)
    /// }
    /// ```
    /// - Returns: True from ``signIn(_:)`` (here or in another process sharing the store) until
    ///   ``signOut()``.
    /// - Throws: `AuthError` `.storage` when the store cannot be read.
    public func isSignedIn() async throws -> Bool { try await session.isSignedIn() }
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
