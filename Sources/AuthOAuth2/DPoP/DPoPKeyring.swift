// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
import Synchronization

/// The DPoP key of each account, loaded from (or made and stored in) the vault once, and shared
/// by the token requests of its strategy and the resource requests of its clients, so that both
/// use the same key and the same servers' nonces.
///
/// ```swift
/// let keyring = DPoPKeyring()
/// container.useDPoP(keyring)
/// let strategy = ClientCredentialsStrategy(client: app, scopes: ["read"], allowedHosts: hosts, dpop: keyring)
/// ```
public final class DPoPKeyring: Sendable {
    private let loaded = Mutex<[AccountKey: Task<DPoP, any Error>]>([:])

    /// An empty keyring.
    public init() {}

    /// Forgets the key loaded for `account`: the next ``dpop(for:vault:)`` reads the vault again
    /// (and makes a new key when the vault has none). `useDPoP` calls it when the account signs out.
    public func forget(_ account: AccountKey) {
        _ = loaded.withLock { $0.removeValue(forKey: account) }
    }

    /// The account's ``DPoP``: its key from `vault`, made and stored there the first time.
    public func dpop(for account: AccountKey, vault: CredentialVault) async throws -> DPoP {
        let task = loaded.withLock { loaded in
            if let task = loaded[account] { return task }
            let task = Task { try await DPoP(key: DPoPKey.forAccount(account, in: vault)) }
            loaded[account] = task
            return task
        }
        do {
            return try await task.value
        } catch {
            loaded.withLock { if $0[account] == task { $0[account] = nil } }
            throw error
        }
    }
}
