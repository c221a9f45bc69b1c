// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore

/// A credential store that keeps records in memory and can be warmed and cleared; what
/// ``CachingCredentialStore`` offers whatever store it wraps.
public protocol CredentialCaching: CredentialStore {
    /// Reads every record of `account` into memory.
    /// - Returns: The number of records loaded.
    @discardableResult
    func preload(account: AccountKey) async throws -> Int
    /// Forgets the cached record at `key`.
    func invalidate(_ key: CredentialKey)
    /// Forgets the cached records of `account`.
    func invalidate(account: AccountKey)
    /// Forgets every cached record.
    func invalidateAll()
}

extension CredentialCaching {
    /// Reads the records of every account in `namespace` into memory, such as at start-up.
    /// - Returns: The number of records loaded.
    @discardableResult
    public func preload(namespace: String) async throws -> Int {
        var loaded = 0
        for account in try await accounts(in: namespace) {
            loaded += try await preload(account: AccountKey(namespace: namespace, account: account))
        }
        return loaded
    }
}

/// Builds a ``CachingCredentialStore`` around a store known only as `any CredentialStore`,
/// keeping its ``/AuthCore/RefreshLocking`` when it has it.
public enum CredentialCache {
    /// Wraps `store` in a ``CachingCredentialStore``.
    /// - Parameters:
    ///   - store: The store to wrap.
    ///   - lifetime: How long a read record is trusted.
    ///   - clock: The clock that expires records.
    public static func wrap(_ store: any CredentialStore, lifetime: Duration = .seconds(2), clock: any AuthClock = SystemClock()) -> any CredentialCaching {
        if let locking = store as? any CredentialStore & RefreshLocking {
            return wrapLocking(locking, lifetime: lifetime, clock: clock)
        }
        return wrapPlain(store, lifetime: lifetime, clock: clock)
    }

    private static func wrapLocking<S: CredentialStore & RefreshLocking>(_ store: S, lifetime: Duration, clock: any AuthClock) -> any CredentialCaching {
        CachingCredentialStore(store, lifetime: lifetime, clock: clock)
    }

    private static func wrapPlain<S: CredentialStore>(_ store: S, lifetime: Duration, clock: any AuthClock) -> any CredentialCaching {
        CachingCredentialStore(store, lifetime: lifetime, clock: clock)
    }
}
