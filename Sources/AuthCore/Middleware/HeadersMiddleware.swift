// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import HTTPTypes

/// Adds header fields to requests: static values, and values computed per request (such as a
/// per-account device id). Fields the request already has are kept.
///
/// A field under a secret name (``SecretFieldNames/standard``, such as `Authorization` or
/// `X-API-Key`, or a name in `secretFields`) is a credential: it is added only to requests whose
/// origin `secretScope` allows, on the first request and on every redirect hop, and marked on
/// the request so that a redirect to another origin drops it. For any other origin it is left
/// out and ``AuthEvent/credentialWithheld(_:)`` reports it. Other fields go to every request.
///
/// ```swift
/// let headers = HeadersMiddleware(
///     [.userAgent: "MyApp/1", HTTPField.Name("X-Service-Token")!: token],
///     secretFields: SecretFieldNames(headers: ["X-Service-Token"]),
///     secretScope: CredentialScope(allowedHosts: AllowedHosts(["api.example.com"])))
/// ```
public struct HeadersMiddleware: Middleware, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    private let plain: HTTPFields
    private let secret: HTTPFields
    private let dynamic: (@Sendable (AuthRequest) async throws -> HTTPFields)?
    /// Every name whose value is a secret: the standard ones and those given.
    private let secretNames: SecretFieldNames
    private let secretScope: CredentialScope

    /// Creates the middleware.
    /// - Parameters:
    ///   - fields: Added to every request (those under a secret name only where `secretScope`
    ///     allows).
    ///   - secretFields: Names whose values are secrets, besides ``SecretFieldNames/standard``.
    ///   - secretScope: The origins secret values may go to; by default none, so that a secret
    ///     is never sent to an origin nobody chose for it.
    ///   - dynamic: Computed for each request and added too, under the same rule.
    public init(
        _ fields: HTTPFields = [:],
        secretFields: SecretFieldNames = SecretFieldNames(),
        secretScope: CredentialScope = CredentialScope(allowedHosts: AllowedHosts([])),
        dynamic: (@Sendable (AuthRequest) async throws -> HTTPFields)? = nil
    ) {
        let names = SecretFieldNames.standard.union(secretFields)
        self.plain = HTTPFields(fields.filter { !names.containsHeader($0.name.canonicalName) })
        self.secret = HTTPFields(fields.filter { names.containsHeader($0.name.canonicalName) })
        self.secretNames = names
        self.secretScope = secretScope
        self.dynamic = dynamic
    }

    /// Adds the fields the request lacks.
    public nonisolated(nonsending) func intercept(_ request: AuthRequest, next: Next) async throws -> AuthResponse {
        var request = adding(plain, secret: secret, to: request)
        if let dynamic { request = try await addingFields(of: dynamic, to: request) }
        return try await next(request)
    }

    /// `request` with the fields `dynamic` gives for it, its secret ones under the secret scope.
    private nonisolated(nonsending) func addingFields(of dynamic: @Sendable (AuthRequest) async throws -> HTTPFields, to request: AuthRequest) async throws -> AuthRequest {
        let fields = try await dynamic(request)
        return adding(
            HTTPFields(fields.filter { !secretNames.containsHeader($0.name.canonicalName) }),
            secret: HTTPFields(fields.filter { secretNames.containsHeader($0.name.canonicalName) }),
            to: request)
    }

    /// The names of the fields it adds, never their values (a static value may be a key).
    public var description: String {
        let names = (plain.map(\.name.rawName) + secret.map(\.name.rawName)).joined(separator: ", ")
        return "HeadersMiddleware(fields: [\(names)]\(dynamic == nil ? "" : ", dynamic"))"
    }
    /// The same as ``description``.
    public var debugDescription: String { description }
    /// The field names only.
    public var customMirror: Mirror {
        Mirror(self, children: ["fields": plain.map(\.name.rawName), "secretFields": secret.map(\.name.rawName), "dynamic": dynamic != nil], displayStyle: .struct)
    }

    /// `request` with `plain` and `secret` added, in a synchronous function of its own: its
    /// temporaries then live on the thread's stack rather than in `intercept`'s frame, which a
    /// request waiting for a renewal keeps allocated.
    @inline(never)
    private func adding(_ plain: HTTPFields, secret: HTTPFields, to request: AuthRequest) -> AuthRequest {
        var request = request
        add(plain, to: &request)
        if !secret.isEmpty { addSecrets(secret, to: &request) }
        return request
    }

    private func addSecrets(_ fields: HTTPFields, to request: inout AuthRequest) {
        let names = fields.map(\.name.canonicalName)
        guard secretScope.admits(request, credential: "header \(names.joined(separator: ", "))") else {
            request = request.removingWrites { add(fields, to: &$0) }
            return
        }
        add(fields, to: &request)
        for name in names { request.markSecret(header: name) }
    }

    private func add(_ fields: HTTPFields, to request: inout AuthRequest) {
        for field in fields where !request.head.headerFields.contains(field.name) {
            request.head.headerFields.append(field)
        }
    }
}
