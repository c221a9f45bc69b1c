// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Synchronization

/// Where a plug-in's middleware runs in the clients a container makes.
///
/// The pipeline of ``AuthContainer/makeClient(for:strategy:)``, outermost first:
///
/// | place | middlewares |
/// |---|---|
/// | ``observation`` | plug-ins that see each call once, as the caller made it (telemetry) |
/// | ``caching`` | plug-ins that may answer without sending (a response cache) |
/// | core | ``RedirectMiddleware``, ``RetryMiddleware``, ``RateLimitObserver``, ``HeadersMiddleware`` (when the container has default headers), ``AuthenticationMiddleware`` |
/// | ``proof`` | plug-ins that prove possession of a key for the request (DPoP), and may send it again with a new proof |
/// | ``session`` | plug-ins that keep state the server sets (cookies), once per hop and attempt, each proof's retry included |
/// | ``signing`` | plug-ins that sign the request as it will be sent (HMAC, SigV4, RFC 9421) |
/// | core | ``TimeoutMiddleware`` (when configured), ``LoggingMiddleware`` (unless the container's logger discards everything) |
///
/// Within a phase, middlewares run in the order they were added. A signer comes after every
/// phase that writes to the request, so it signs what is sent, whatever order the `use…` calls
/// came in.
public enum MiddlewarePhase: Int, Sendable, Comparable, CaseIterable {
    /// Outermost: each call once, before redirects and retries, with its final answer.
    case observation
    /// Before redirects and retries: may answer a call from what it kept.
    case caching
    /// After authentication: a proof bound to the request's method and target.
    case proof
    /// After the proof phase, for each hop and attempt (a proof's retry included): state the
    /// server keeps on the client.
    case session
    /// Innermost of the plug-ins: a signature over the request as it will be sent.
    case signing

    /// Whether `lhs` runs outside `rhs`.
    public static func < (lhs: MiddlewarePhase, rhs: MiddlewarePhase) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Whether the phase runs before (outside) the core's redirect, retry and authentication.
    var isOutsideAuthentication: Bool { self < .proof }
}

/// The middlewares plug-ins add to every client a container makes, each with its phase.
///
/// Add to them with ``AuthContainer/addMiddleware(_:named:_:)``.
public struct PluginMiddlewares: Sendable {
    /// Builds a middleware for the client described by the context.
    public typealias Factory = @Sendable (PluginContext) -> any Middleware

    private struct Entry: Sendable {
        let phase: MiddlewarePhase
        let name: String?
        let factory: Factory
    }

    private var entries: [Entry] = []

    /// None.
    public init() {}

    /// Adds `factory` to `phase`, after the ones added before; one added under `name` before is
    /// replaced in its place.
    public mutating func add(_ phase: MiddlewarePhase, named name: String? = nil, _ factory: @escaping Factory) {
        let entry = Entry(phase: phase, name: name, factory: factory)
        if let name, let index = entries.firstIndex(where: { $0.name == name }) {
            if entries[index].phase == phase {
                entries[index] = entry
                return
            }
            entries.remove(at: index)
        }
        entries.append(entry)
    }

    /// The names of the middlewares added under one, by phase and in order.
    public var names: [String] { ordered.compactMap(\.name) }

    /// The middlewares of the phases `which` selects, built for `context`: by phase, then in the
    /// order they were added.
    public func middlewares(where which: (MiddlewarePhase) -> Bool, for context: PluginContext) -> [any Middleware] {
        ordered.filter { which($0.phase) }.map { $0.factory(context) }
    }

    /// The entries by phase, in the order each phase's were added.
    private var ordered: [Entry] {
        MiddlewarePhase.allCases.flatMap { phase in entries.filter { $0.phase == phase } }
    }
}

/// What a plug-in middleware factory knows about the client it builds a middleware for.
public struct PluginContext: Sendable, CustomReflectable {
    /// The container building the client.
    public let container: AuthContainer
    /// The account the client acts as.
    public let account: AccountKey
    /// The origins the client's credential may go to (its strategy's hosts): the default
    /// ``CredentialScope`` of a plug-in that puts a secret of its own on requests.
    public let allowedHosts: AllowedHosts

    /// Creates a context, for calling a ``PluginMiddlewares/Factory`` by hand (in a test, say).
    public init(container: AuthContainer, account: AccountKey, allowedHosts: AllowedHosts) {
        self.container = container
        self.account = account
        self.allowedHosts = allowedHosts
    }

    /// The account only: the container holds values (default headers) that may be secrets.
    public var customMirror: Mirror {
        Mirror(self, children: ["account": account.description], displayStyle: .struct)
    }

    /// The scope of a secret that belongs to this client's account: its hosts, its account,
    /// the container's events.
    public var credentialScope: CredentialScope {
        CredentialScope(allowedHosts: allowedHosts, account: account, events: container[AuthEventsKey.self])
    }
}

/// The plug-in middlewares of ``PluginMiddlewares``.
public enum PluginMiddlewaresKey: AuthContainerKey {
    /// None.
    public static func makeDefault(_ container: AuthContainer) -> PluginMiddlewares { PluginMiddlewares() }
}

extension AuthContainer {
    /// Adds a middleware to every client this container makes from now on, in `phase` (see
    /// ``MiddlewarePhase`` for the whole order), after the ones added to that phase before.
    ///
    /// One call, one atomic change: calls from several tasks at once each add theirs. A middleware
    /// added again under the same `name` replaces the earlier one in its place, so a `use…`
    /// function called twice installs its middleware once.
    ///
    /// ```swift
    /// container.addMiddleware(.observation, named: "request-id") { _ in
    ///     ClosureMiddleware { request, next in
    ///         var request = request
    ///         request.head.headerFields[HTTPField.Name("X-Request-ID")!] = UUID().uuidString
    ///         return try await next(request)
    ///     }
    /// }
    /// ```
    /// - Parameters:
    ///   - phase: Where in the pipeline the middleware runs.
    ///   - name: A name that identifies the middleware among the container's plug-ins, or nil.
    ///   - factory: Builds the middleware for each client, from what the context says of it.
    public func addMiddleware(_ phase: MiddlewarePhase, named name: String? = nil, _ factory: @escaping PluginMiddlewares.Factory) {
        update(PluginMiddlewaresKey.self) { $0.add(phase, named: name, factory) }
    }
}

/// What plug-ins remove when an account signs out, besides its credential: state they keep for
/// the account (a cookie jar and its saved record, say). ``AccountSession/signOut()`` runs the
/// steps once the credential is removed, and before it returns, so that a process that exits
/// right after a sign-out leaves nothing of the session behind.
///
/// Add to them with ``AuthContainer/addSignOutStep(named:_:)``.
public final class SignOutSteps: Sendable {
    /// Removes what a plug-in keeps for an account.
    public typealias Step = @Sendable (AccountKey) async throws -> Void

    private let steps = Mutex<[(name: String, step: Step)]>([])

    /// None.
    public init() {}

    /// Adds `step` after the ones added before; one added under `name` before is replaced in
    /// its place, so a `use…` function called twice runs its step once.
    /// - Parameters:
    ///   - name: A name that identifies the step among the container's plug-ins.
    ///   - step: What to remove for the account signing out.
    public func add(named name: String, _ step: @escaping Step) {
        steps.withLock { steps in
            if let index = steps.firstIndex(where: { $0.name == name }) {
                steps[index].step = step
            } else {
                steps.append((name, step))
            }
        }
    }

    /// Runs every step for `account` in order, each one even when one before it failed.
    /// - Throws: The first step's error, once all have run.
    func run(for account: AccountKey) async throws {
        var firstError: (any Error)?
        for (_, step) in steps.withLock({ $0 }) {
            do { try await step(account) } catch { firstError = firstError ?? error }
        }
        if let firstError { throw firstError }
    }
}

/// The ``SignOutSteps`` of a container's sessions.
public enum SignOutStepsKey: AuthContainerKey {
    /// None.
    public static func makeDefault(_ container: AuthContainer) -> SignOutSteps { SignOutSteps() }
}

extension AuthContainer {
    /// Adds a step to every sign-out of this container's accounts (see ``SignOutSteps``): it
    /// removes what a plug-in keeps for the account, after the credential is removed.
    ///
    /// ```swift
    /// container.addSignOutStep(named: "avatars") { account in
    ///     try? FileManager.default.removeItem(at: appSupport.appending(path: "avatars/\(account.account)"))
    /// }
    /// ```
    /// - Parameters:
    ///   - name: A name that identifies the step; a step added again under it replaces the earlier one.
    ///   - step: What to remove for the account signing out.
    public func addSignOutStep(named name: String, _ step: @escaping SignOutSteps.Step) {
        self[SignOutStepsKey.self].add(named: name, step)
    }
}
