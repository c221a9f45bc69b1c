// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
import Foundation
import HTTPTypes

/// A ``/AuthCore/Middleware`` that sends the jar's cookies with every request and stores the cookies of
/// every response.
///
/// For each request it builds the `Cookie` header for the request URL and, once the response
/// comes back, stores its `Set-Cookie` fields for that same URL. Place it inside (after) the
/// redirect middleware: each redirect hop then passes through it separately, gets the cookies of
/// its own origin, and its `Set-Cookie` fields are stored for its own origin.
///
/// Which cookies a hop gets is RFC 6265's rule, not an origin's: a cookie is scoped by host
/// (and `Domain`), path and `Secure`, never by port (§8.5), so a cookie of `127.0.0.1:8080` also
/// goes to `127.0.0.1:9090`, as in every browser. Another host (`127.0.0.2`, `localhost`) gets
/// none of it. Keep sessions that must not meet on distinct host names.
///
/// A `Cookie` header the caller set is kept: the jar's cookies are appended to it, except those
/// whose name the caller's header already has (the caller's value wins).
///
/// An answer never overwrites a cookie whose value changed after its request was sent: a late
/// answer to a request sent with the old session does not undo a sign-in that happened
/// meanwhile.
///
/// With a ``CookieJarStore``, the jar is saved after every response that changed it (never over
/// another sign-in's session or a record it cannot read: see ``CookieJarStore``). A failed
/// save does not fail the request; it is passed to `onSaveError`, and the next request saves
/// again (``CookieJarStore/hasUnsavedChanges``) until the store takes it.
///
/// ```swift
/// let jar = CookieJar()
/// let cookies = CookieMiddleware(jar: jar, store: CookieJarStore(store: store, account: alice))
/// let response = try await cookies.intercept(request, next: transport.send)
/// ```
public struct CookieMiddleware: Middleware {
    /// The jar that supplies and receives cookies.
    public let jar: CookieJar
    /// Where the jar is saved after a change, if anywhere.
    public let store: CookieJarStore?
    private let onSaveError: @Sendable (any Error) -> Void

    /// Creates the middleware.
    /// - Parameters:
    ///   - jar: The jar to read and update.
    ///   - store: When given, the jar is saved through it after each response that changed it.
    ///   - onSaveError: Called when saving fails; the request's response is returned anyway.
    public init(jar: CookieJar, store: CookieJarStore? = nil, onSaveError: @escaping @Sendable (any Error) -> Void = { _ in }) {
        self.jar = jar
        self.store = store
        self.onSaveError = onSaveError
    }

    /// Attaches the `Cookie` header, sends the request, stores the response's cookies.
    ///
    /// A request that a redirect moved from https to http gets no cookie of the jar (the redirect
    /// stripped its own): a session cookie without `Secure` would go out in the clear.
    public nonisolated(nonsending) func intercept(_ request: AuthRequest, next: Next) async throws -> AuthResponse {
        guard let url = request.url else { return try await next(request) }
        var request = request
        let carried = request.options.downgradedByRedirect ? [] : addJarCookies(to: &request, for: url)
        let generation = jar.generation
        let response = try await next(request)
        let values = response.head.headerFields[values: .setCookie]
        if !values.isEmpty {
            jar.setCookies(fromHeaderValues: values, for: url, carried: Dictionary(carried.map { ($0.identity, $0.value) }, uniquingKeysWith: { first, _ in first }))
        }
        if let store, jar.generation != generation || store.hasUnsavedChanges {
            do { try await store.save(jar) } catch { onSaveError(error) }
        }
        return response
    }

    /// Adds the jar's cookies for `url` to the request's `Cookie` header: after the caller's
    /// own, leaving out those whose name the caller's header already has (the caller's value
    /// wins). Returns the cookies added, whose values a late answer must not overwrite once
    /// they changed (told apart by name, domain and path, as the jar keeps them).
    private func addJarCookies(to request: inout AuthRequest, for url: URL) -> [Cookie] {
        let caller = request.head.headerFields[.cookie] ?? ""
        let callerNames = Self.names(in: caller)
        let added = jar.cookies(for: url).filter { !callerNames.contains($0.name) }
        guard !added.isEmpty else { return [] }
        let jarPart = added.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
        request.head.headerFields[.cookie] = caller.isEmpty ? jarPart : caller + "; " + jarPart
        return added
    }

    /// The names of a `Cookie` header's pairs.
    private static func names(in header: String) -> Set<String> {
        guard !header.isEmpty else { return [] }
        return Set(header.split(separator: ";").map { pair in
            String(pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0]).trimmingCharacters(in: .whitespaces)
        })
    }
}
