// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Logging
import Synchronization

/// Hands out one ``AccountSession`` per account, so that every client of an account in this
/// process shares its credential state and its single renewal in flight.
///
/// ```swift
/// let sessions = SessionRegistry(vault: vault)
/// let session = sessions.session(for: alice, strategy: bearer)
/// ```
public final class SessionRegistry: Sendable {
    /// The vault credentials are read from and persisted to.
    public let vault: CredentialVault
    /// The renewal limits.
    public let policy: RenewalPolicy
    /// The clock.
    public let clock: any AuthClock
    /// Where events go.
    public let events: AuthEvents
    let logger: Logger
    /// What plug-ins remove when an account signs out.
    public let signOutSteps: SignOutSteps
    private let sessions = Mutex<[AccountKey: any Sendable]>([:])
    /// Follows the store's change feed, when it has one (``CredentialChangeFeed``).
    private let follower: ChangeFollower?

    /// Creates a registry.
    public init(vault: CredentialVault, policy: RenewalPolicy = .init(), clock: any AuthClock = SystemClock(), events: AuthEvents = AuthEvents(), logger: Logger = Logger(label: "AuthKit"), signOutSteps: SignOutSteps = SignOutSteps()) {
        self.vault = vault
        self.signOutSteps = signOutSteps
        self.policy = policy
        self.clock = clock
        self.events = events
        self.logger = logger
        follower = vault.changeFeed.map { ChangeFollower($0.credentialChanges()) }
    }

    /// The session of `account`, created on first use.
    ///
    /// An account is managed by one strategy type; asking for the same account with another
    /// strategy type replaces its session. Asking again with the same type returns the existing
    /// session, which keeps the strategy value it was created with: a second strategy of that type
    /// with another configuration (other hosts, no CSRF header) is not used. Configure a
    /// different behaviour under another account key or in another container.
    public func session<S: AuthStrategy>(for account: AccountKey, strategy: S) -> AccountSession<S> {
        sessions.withLock { sessions in
            if let existing = sessions[account] as? AccountSession<S> { return existing }
            let created = AccountSession(account: account, strategy: strategy, vault: vault, policy: policy, clock: clock, events: events, logger: logger, signOutSteps: signOutSteps)
            sessions[account] = created
            if let follower {
                follower.follow(created)
                created.keep(follower)
            }
            return created
        }
    }
}
