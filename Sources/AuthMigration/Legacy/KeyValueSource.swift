// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore

/// Where a legacy single-user layout keeps its values: text by key name.
///
/// AuthMigration reads legacy data and never deletes it; removing the old layout after an import
/// is the application's decision.
///
/// ## Implementing
/// Return nil for a key that has no value; throw ``MigrationError`` (`.invalidSourceKey`,
/// `.sourceUnreadable`) when the source cannot answer. Never put the value into an error.
/// Built in: ``DictionaryKeyValueSource``, ``DirectoryKeyValueSource``,
/// ``StoreKeyValueSource`` and ``ClosureKeyValueSource``.
public protocol KeyValueSource: Sendable {
    /// The value stored under `key`, or nil when there is none.
    func value(for key: String) async throws -> String?
}

/// A ``KeyValueSource`` that asks a closure, for sources such as `UserDefaults` or a keychain wrapper.
///
/// ```swift
/// let source = ClosureKeyValueSource { key in defaults.string(forKey: key) }
/// ```
public struct ClosureKeyValueSource: KeyValueSource {
    private let lookup: @Sendable (String) async throws -> String?

    /// Uses `lookup` to read each value.
    public init(_ lookup: @escaping @Sendable (String) async throws -> String?) {
        self.lookup = lookup
    }

    /// The closure's answer for `key`.
    public func value(for key: String) async throws -> String? { try await lookup(key) }
}

/// A ``KeyValueSource`` over a plain dictionary, such as a parsed legacy JSON or plist file.
///
/// The values are legacy tokens and keys: they are held as `Secret`s, so the source's
/// `description`, `debugDescription` and `dump` show the key names only.
public struct DictionaryKeyValueSource: KeyValueSource, CustomStringConvertible, CustomDebugStringConvertible {
    private let values: [String: Secret]

    /// Uses `values`.
    public init(_ values: [String: String]) { self.values = values.mapValues(Secret.init) }

    /// The value under `key`.
    public func value(for key: String) async throws -> String? { values[key]?.reveal }

    /// The key names; never the values.
    public var description: String { "DictionaryKeyValueSource(keys: \(values.keys.sorted()))" }

    /// The same as ``description``.
    public var debugDescription: String { description }
}
