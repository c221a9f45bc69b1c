// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// A key of the ``AuthContainer``: a type with a value type and a default.
///
/// ```swift
/// enum APIBaseURLKey: AuthContainerKey {
///     static func makeDefault(_ container: AuthContainer) -> URL { URL(string: "https://api.example.com")! }
/// }
/// ```
public protocol AuthContainerKey {
    /// The type of the entry.
    associatedtype Value: Sendable
    /// Builds the default entry; it may resolve other keys from `container`.
    static func makeDefault(_ container: AuthContainer) -> Value
}

/// The composition root: typed entries with defaults, overridable, built once.
///
/// Each entry is a singleton built on first use, by its key's default or by a registered
/// factory, which receives the container to resolve what it needs. Registering or overriding an
/// entry replaces it (and forgets what was built from the old one is the caller's concern:
/// configure before first use). Plug-ins add their keys and a one-line registration in an
/// extension, such as `container.useSQLiteStore(at:)`. Thread-safe; a singleton is built once
/// even when many tasks ask for it at the same time.
///
/// ```swift
/// let container = AuthContainer()
/// container.override(CredentialStoreKey.self, with: myStore)
/// let alice = container.makeClient(for: AccountKey(namespace: "api", account: "alice"), strategy: bearer)
/// ```
public final class AuthContainer: @unchecked Sendable {
    // @unchecked: every stored property is read and written only while holding `lock`.
    private let lock = NSRecursiveLock()
    private var factories: [ObjectIdentifier: @Sendable (AuthContainer) -> any Sendable] = [:]
    private var instances: [ObjectIdentifier: any Sendable] = [:]

    /// Creates an empty container: every key resolves to its default.
    public init() {}

    /// The entry for `key`, built on first use.
    public subscript<Key: AuthContainerKey>(_ key: Key.Type) -> Key.Value {
        resolve(key)
    }

    /// The entry for `key`, built on first use.
    public func resolve<Key: AuthContainerKey>(_ key: Key.Type) -> Key.Value {
        let id = ObjectIdentifier(key)
        lock.lock()
        defer { lock.unlock() }
        // Unwrap the stored box first: casting a missing entry straight to an optional `Value`
        // would succeed with nil and skip the registered factory.
        if let stored = instances[id], let instance = stored as? Key.Value { return instance }
        let value: Key.Value
        if let factory = factories[id], let built = factory(self) as? Key.Value {
            value = built
        } else {
            value = Key.makeDefault(self)
        }
        instances[id] = value
        return value
    }

    /// Registers a factory for `key`, replacing the default; it runs once, on first use.
    public func register<Key: AuthContainerKey>(_ key: Key.Type, factory: @escaping @Sendable (AuthContainer) -> Key.Value) {
        lock.lock()
        defer { lock.unlock() }
        factories[ObjectIdentifier(key)] = factory
        instances[ObjectIdentifier(key)] = nil
    }

    /// Changes the entry for `key` (built first if need be) in one step: no other call on the
    /// container runs between its read and its write, so concurrent changes are all kept.
    public func update<Key: AuthContainerKey>(_ key: Key.Type, _ change: (inout Key.Value) -> Void) {
        lock.lock()
        defer { lock.unlock() }
        var value = resolve(key)
        change(&value)
        instances[ObjectIdentifier(key)] = value
    }

    /// Replaces the entry for `key` with `value`.
    public func override<Key: AuthContainerKey>(_ key: Key.Type, with value: Key.Value) {
        lock.lock()
        defer { lock.unlock() }
        instances[ObjectIdentifier(key)] = value
    }
}
