// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore

/// The response cache that ``AuthCore/AuthContainer/useResponseCache(_:onPurge:)`` installs in every
/// client; read it back to inspect or purge it:
/// ```swift
/// container[ResponseCacheKey.self].purge(account: alice)
/// ```
///
/// The default is an empty cache with the default configuration that follows the container's
/// events; it is used only by clients built after `useResponseCache`, or by a
/// ``CacheMiddleware`` added by hand. The value is not optional on purpose: for a key whose
/// value is optional, `AuthContainer.resolve` takes a missing instance for a built `nil` and
/// never runs a registered factory.
public enum ResponseCacheKey: AuthContainerKey {
    /// An empty cache that purges accounts on the container's sign-out events.
    public static func makeDefault(_ container: AuthContainer) -> ResponseCache {
        let cache = ResponseCache()
        cache.observe(container[AuthEventsKey.self])
        return cache
    }
}

extension AuthContainer {
    /// Caches the GET and HEAD responses of every client this container builds, partitioned by
    /// account, and purges an account's entries when it signs out (before `signOut()` returns)
    /// or must sign in again.
    ///
    /// Registers a ``ResponseCache`` under ``ResponseCacheKey`` (built on first use, following
    /// the container's ``/AuthCore/AuthEventsKey``) and adds a ``CacheMiddleware`` to each client in the
    /// `caching` phase (``/AuthCore/MiddlewarePhase``), before redirects and retries, aged by the container's ``/AuthCore/ClockKey``. Call it while
    /// configuring, before building clients; calling it again replaces the configuration.
    ///
    /// ```swift
    /// let container = AuthContainer()
    /// container.useResponseCache(.init(maxBytes: 8 << 20, defaultLifetime: .seconds(30)))
    /// let alice = container.makeClient(for: aliceKey, strategy: bearer)
    /// ```
    /// - Parameters:
    ///   - configuration: Limits and defaults of the cache.
    ///   - onPurge: Called after an account's entries were purged because of an event.
    public func useResponseCache(_ configuration: ResponseCacheConfiguration = .init(), onPurge: (@Sendable (AccountKey, Int) -> Void)? = nil) {
        register(ResponseCacheKey.self) { container in
            let cache = ResponseCache(configuration: configuration)
            cache.observe(container[AuthEventsKey.self], onPurge: onPurge)
            return cache
        }
        addMiddleware(.caching, named: "response-cache") { context in
            let cache = context.container[ResponseCacheKey.self]
            // Purged before `signOut()` returns: the event's purge runs a moment later, and a
            // request made at once was answered from the signed-out account's entries.
            context.container.addSignOutStep(named: "response-cache") { account in cache.purge(account: account) }
            return CacheMiddleware(cache: cache, account: context.account, clock: context.container[ClockKey.self])
        }
    }
}

extension AuthContainer {
    /// Keeps the container's credential records in memory for `lifetime`, in front of the store
    /// registered so far.
    ///
    /// Call it after registering the store (it wraps the store resolved now) and before building
    /// clients. The returned cache can preload accounts at start-up.
    ///
    /// ```swift
    /// try await container.useSQLiteStore(at: path)
    /// let cache = container.useCredentialCache()
    /// try await cache.preload(namespace: "api")
    /// ```
    @discardableResult
    public func useCredentialCache(lifetime: Duration = .seconds(2)) -> any CredentialCaching {
        let cache = CredentialCache.wrap(self[CredentialStoreKey.self], lifetime: lifetime, clock: self[ClockKey.self])
        override(CredentialStoreKey.self, with: cache)
        return cache
    }
}
