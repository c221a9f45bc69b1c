// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
public import Foundation

/// How a ``SQLiteCredentialStore`` opens its database, waits for locks and leases its refresh locks.
///
/// The defaults suit a credential store on a local disk shared by a few processes of one user:
///
/// ```swift
/// var options = SQLiteStoreOptions()
/// options.busyTimeout = .seconds(2)
/// let store = try await SQLiteCredentialStore.open(at: path, options: options)
/// ```
public struct SQLiteStoreOptions: Sendable {
    /// How hard a commit tries to reach the disk before it returns.
    ///
    /// The database always runs in WAL mode. In WAL mode SQLite's `synchronous` setting decides
    /// what a crash can take away:
    /// - ``full`` (`synchronous=FULL`, the default): the WAL is synced on every commit, so a commit
    ///   that returned survives a process crash *and* a power loss or kernel panic.
    /// - ``normal`` (`synchronous=NORMAL`): the WAL is synced only at checkpoints. The database
    ///   stays consistent after any crash, and a process crash loses nothing, but a power loss
    ///   can undo the last commits.
    ///
    /// The default is ``full``: credential writes are rare and small, and losing a committed
    /// write here is costly — a rotated refresh token that is lost after a power cut cannot be
    /// used again (the server already retired the old one), so the user would be signed out.
    public enum Durability: Sendable, Hashable {
        /// `PRAGMA synchronous = FULL`: commits survive a power loss.
        case full
        /// `PRAGMA synchronous = NORMAL`: commits survive a process crash; the last ones may be
        /// lost on power loss.
        case normal

        var pragmaValue: String {
            switch self {
            case .full: "FULL"
            case .normal: "NORMAL"
            }
        }
    }

    /// Exponential backoff with full jitter between attempts to take a refresh lease.
    public struct Backoff: Sendable, Hashable {
        /// The upper bound of the first wait.
        public var initial: Duration
        /// The largest upper bound a wait can grow to.
        public var maximum: Duration

        /// Creates a backoff policy.
        /// - Parameters:
        ///   - initial: The upper bound of the first wait; it doubles on each attempt.
        ///   - maximum: The cap of that upper bound.
        public init(initial: Duration = .milliseconds(5), maximum: Duration = .milliseconds(100)) {
            self.initial = initial
            self.maximum = maximum
        }

        /// The wait before attempt `attempt` (0-based): uniformly random in `0...min(maximum, initial·2^attempt)`.
        func delay(attempt: Int) -> Duration {
            let upper = min(maximum.seconds, initial.seconds * pow(2, Double(min(max(attempt, 0), 30))))
            guard upper.isFinite, upper > 0 else { return .zero }
            return .seconds(Double.random(in: 0...upper))
        }
    }

    /// How long SQLite waits for another connection's write lock before a call fails with
    /// `CredentialStoreError.unavailable`. Default 5 seconds.
    public var busyTimeout: Duration
    /// What a commit guarantees; see ``Durability``. Default ``Durability/full``.
    public var durability: Durability
    /// How long a refresh lease lasts without renewal. While the body of
    /// ``SQLiteCredentialStore/withRefreshLock(for:_:)`` runs, the holder extends its lease every
    /// third of this duration, so only a crashed (or frozen) holder loses it. Default 15 seconds.
    public var leaseDuration: Duration
    /// How long a caller waits for a refresh lock held by another process before it fails with
    /// `CredentialStoreError.unavailable`. Default 30 seconds.
    public var lockTimeout: Duration
    /// The waits between attempts to take a refresh lease held elsewhere.
    public var leaseRetryBackoff: Backoff
    /// The wall clock that lease expiry is computed with. Leases are compared across processes,
    /// so every process sharing a file must use the same (real) clock; tests may inject another.
    public var now: @Sendable () -> Date

    /// Creates options; every parameter has the documented default.
    public init(
        busyTimeout: Duration = .seconds(5),
        durability: Durability = .full,
        leaseDuration: Duration = .seconds(15),
        lockTimeout: Duration = .seconds(30),
        leaseRetryBackoff: Backoff = Backoff(),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.busyTimeout = busyTimeout
        self.durability = durability
        self.leaseDuration = leaseDuration
        self.lockTimeout = lockTimeout
        self.leaseRetryBackoff = leaseRetryBackoff
        self.now = now
    }
}

extension SQLiteStoreOptions {
    /// Throws `.invalidArgument` for options no store can honour.
    func validate(path: String) throws {
        func invalid(_ message: String) -> CredentialStoreError {
            CredentialStoreError(code: .invalidArgument, message: message, path: path)
        }
        guard busyTimeout >= .zero else { throw invalid("busyTimeout must not be negative") }
        guard lockTimeout >= .zero else { throw invalid("lockTimeout must not be negative") }
        guard leaseDuration >= .milliseconds(30) else {
            throw invalid("leaseDuration must be at least 30 ms, or leases would lapse while their holders run")
        }
        guard leaseRetryBackoff.initial >= .zero, leaseRetryBackoff.maximum >= .zero else {
            throw invalid("leaseRetryBackoff durations must not be negative")
        }
    }
}

