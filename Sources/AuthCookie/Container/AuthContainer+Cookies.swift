// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
public import Foundation
import Synchronization

/// The cookie jars of a container's accounts, one per account, created on first use, and the
/// one ``CookieJarStore`` per account that saves each jar (so saves of one jar never race).
public final class CookieJars: Sendable {
    private let jars = Mutex<[AccountKey: CookieJar]>([:])
    private let stores = Mutex<[AccountKey: CookieJarStore]>([:])
    private let now: @Sendable () -> Date
    /// The configuration of new jars.
    public let configuration: CookieJarConfiguration

    /// Creates an empty registry.
    /// - Parameters:
    ///   - configuration: The configuration of every jar.
    ///   - now: The jars' clock.
    public init(configuration: CookieJarConfiguration = .init(), now: @escaping @Sendable () -> Date = { Date() }) {
        self.configuration = configuration
        self.now = now
    }

    /// The jar of `account`.
    public func jar(for account: AccountKey) -> CookieJar {
        jars.withLock { jars in
            if let jar = jars[account] { return jar }
            let jar = CookieJar(configuration: configuration, now: now)
            jars[account] = jar
            return jar
        }
    }

    /// The saver of `account`'s jar, created on first use over `vault` (which seals it).
    public func jarStore(for account: AccountKey, in vault: CredentialVault) -> CookieJarStore {
        stores.withLock { stores in
            if let existing = stores[account] { return existing }
            let created = CookieJarStore(vault: vault, account: account, now: now)
            stores[account] = created
            return created
        }
    }

    /// Empties the jar of `account` and removes its saved record, whichever session it holds (a
    /// sign-out): a session cookie left on disk would still open the session the user ended.
    /// - Throws: What the credential store throws; the jar in memory is empty all the same.
    public func removeSession(of account: AccountKey, in vault: CredentialVault) async throws {
        jar(for: account).removeAll()
        try await jarStore(for: account, in: vault).delete()
    }
}

/// The container's ``CookieJars``.
public enum CookieJarsKey: AuthContainerKey {
    /// A registry with the default configuration and the container's clock.
    public static func makeDefault(_ container: AuthContainer) -> CookieJars {
        let clock = container[ClockKey.self]
        return CookieJars(now: { clock.now() })
    }
}

extension AuthContainer {
    /// Adds a ``CookieMiddleware`` to every client built afterwards, in the `session` phase
    /// (``/AuthCore/MiddlewarePhase``: after authentication, so it runs once per redirect hop and
    /// per attempt): each account has its own jar, saved through the container's credential
    /// store (sealed by its cipher, when one is configured) after every change, and emptied and
    /// removed when the account signs out. A save the store refuses is reported as
    /// ``/AuthCore/AuthEvent/persistFailed(_:reason:)`` and made again after the next request.
    /// Call it before building clients; calling it again only replaces the configuration (of
    /// jars not yet created).
    ///
    /// ```swift
    /// container.useCookies()
    /// let jar = try await container.restoreCookieJar(for: alice)   // what a previous run saved
    /// ```
    public func useCookies(configuration: CookieJarConfiguration = .init()) {
        register(CookieJarsKey.self) { container in
            let clock = container[ClockKey.self]
            return CookieJars(configuration: configuration, now: { clock.now() })
        }
        addMiddleware(.session, named: "cookies") { context in
            let jars = context.container[CookieJarsKey.self]
            let vault = context.container[CredentialVaultKey.self]
            context.container.removeCookiesOnSignOut(jars, vault)
            let events = context.container[AuthEventsKey.self]
            let account = context.account
            return CookieMiddleware(jar: jars.jar(for: account), store: jars.jarStore(for: account, in: vault)) { error in
                let reason = (error as? CredentialStoreError)?.message ?? "\(type(of: error))"
                events.emit(.persistFailed(account, reason: "the cookie jar could not be saved (saved again after the next request): \(reason)"))
            }
        }
    }

    /// Has every sign-out of the container's accounts empty the account's jar in `jars` and
    /// remove its record in `vault` (``CookieJars/removeSession(of:in:)``): the jars and vault
    /// the container's clients use, captured when a client or strategy is made (the container
    /// itself is not: it would keep itself alive through its own sign-out steps).
    private func removeCookiesOnSignOut(_ jars: CookieJars, _ vault: CredentialVault) {
        addSignOutStep(named: "cookies") { account in
            try await jars.removeSession(of: account, in: vault)
        }
    }

    /// The jar of `account`, filled from the store with what a previous run saved (unchanged
    /// when nothing was saved).
    /// - Throws: As ``CookieJarStore/loadSnapshot()``.
    public func restoreCookieJar(for account: AccountKey) async throws -> CookieJar {
        let jars = self[CookieJarsKey.self]
        let jar = jars.jar(for: account)
        try await jars.jarStore(for: account, in: self[CredentialVaultKey.self]).load(into: jar)
        return jar
    }

    /// A ``CookieSessionStrategy`` for `account` on the container's jar, jar store, transport
    /// and clock: the jar its clients' ``CookieMiddleware`` uses (see ``useCookies(configuration:)``),
    /// emptied and removed when the account signs out.
    /// - Parameters:
    ///   - account: The account.
    ///   - allowedHosts: Where the session is used.
    ///   - login: The login endpoint.
    ///   - csrf: The CSRF double-submit configuration of ordinary requests, if the server uses one.
    ///   - refresh: The refresh endpoint, when the server renews sessions with a refresh cookie.
    ///   - sessionEnd: Which answers mean that the session ended.
    public func cookieSessionStrategy(
        for account: AccountKey, allowedHosts: AllowedHosts, login: CookieSessionStrategy.Login,
        csrf: CookieSessionStrategy.CSRF? = .init(), refresh: CookieSessionStrategy.Refresh? = nil,
        sessionEnd: CookieSessionStrategy.SessionEnd = .standard
    ) -> CookieSessionStrategy {
        let jars = self[CookieJarsKey.self]
        let vault = self[CredentialVaultKey.self]
        removeCookiesOnSignOut(jars, vault)
        return CookieSessionStrategy(
            allowedHosts: allowedHosts, jar: jars.jar(for: account), login: login, csrf: csrf, refresh: refresh, sessionEnd: sessionEnd,
            transport: self[TransportKey.self], jarStore: jars.jarStore(for: account, in: vault),
            clock: self[ClockKey.self])
    }
}
