// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Synchronization

/// A ``Keyring`` in this process's memory, for tests and examples: nothing survives the process.
public final class InMemoryKeyring: Keyring {
    private let secrets = Mutex<[KeyringItem: KeyringSecret]>([:])

    /// An empty keyring.
    public init() {}

    /// The secret stored for `item`, or nil.
    public func secret(for item: KeyringItem) async throws -> KeyringSecret? {
        secrets.withLock { $0[item] }
    }

    /// Stores `secret` for `item`.
    public func setSecret(_ secret: KeyringSecret, for item: KeyringItem, label: String) async throws {
        secrets.withLock { $0[item] = secret }
    }

    /// Stores `secret` for `item` unless it has one already.
    public func addSecret(_ secret: KeyringSecret, for item: KeyringItem, label: String) async throws {
        secrets.withLock { if $0[item] == nil { $0[item] = secret } }
    }

    /// Deletes the secret of `item`; returns whether there was one.
    @discardableResult
    public func deleteSecret(for item: KeyringItem) async throws -> Bool {
        secrets.withLock { $0.removeValue(forKey: item) != nil }
    }
}
