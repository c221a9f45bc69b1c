// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation

/// The durable mark of a renewal in progress, kept in the store beside the credential it renews
/// from: what keeps a refresh token from being presented twice when a lock goes away.
///
/// A store's refresh lock (``RefreshLocking``) makes other processes *wait*; it is not what
/// keeps them *safe*. A lock can vanish while its holder still works (a database restart ends the
/// session that held an advisory lock; a file lock's lease lapses while the disk is read-only),
/// and the next process would then read the old record and present the refresh token the holder
/// has just had rotated. The lease is a record of the store itself, written by compare-and-swap
/// (``CredentialStore/replace(_:ifCurrent:with:)``), so it survives whatever the lock does not.
///
/// ## The rules
/// 1. **Take before presenting.** A renewal presents a credential only while it holds the lease
///    for the record it read; it takes the lease by compare-and-swap and then reads the record
///    again (a renewal that ended just before has written its result, which is then adopted).
/// 2. **A lease is about one record.** It names the record it renews from (a fingerprint).
///    Once that record changed (renewed, signed in, signed out) the lease is over, whatever it
///    says: a leftover lease never blocks anyone.
/// 3. **A live holder beats.** While it renews and until its result is written, the holder
///    rewrites its lease every ``RenewalPolicy/leaseBeat`` and retries a write that failed at
///    that pace too. Another process waits for a lease that changes; it takes over only a lease
///    it has watched unchanged for a whole ``RenewalPolicy/leaseTerm`` (by its own clock, so the
///    processes' clocks need not agree), and then waits two beats more before reading the record:
///    a holder that was only cut off from the store has written its result by then.
/// 4. **A refusal is a mark, not a deletion.** A refresh the server refused while the record is
///    unchanged leaves the lease in the `refused` state: other processes fail at once instead of
///    presenting the same refresh token, and a holder that is still alive may yet write its
///    result over the record (which ends the mark, by rule 2). Only a sign-out deletes the record.
///
/// The lease holds no secret: the holder's identifiers and a hash of the sealed record.
struct RenewalLease: Codable, Equatable, Sendable {
    enum State: String, Codable, Sendable {
        /// A renewal from ``from`` is running.
        case renewing
        /// The server refused the renewal from ``from``; only a new record ends this.
        case refused
    }

    /// The session (one per account and process) that took the lease.
    var session: String
    /// The renewal that took it: a new one for each renewal.
    var holder: String
    /// ``fingerprint(of:)`` of the record the renewal started from.
    var from: String
    /// Rewritten by every beat, so that a watcher sees a live holder.
    var beat: UInt64
    var state: State

    /// The item the lease is kept under, beside the account's credential.
    static let item = "renewal-lease"
    /// The kind of its envelope.
    static let kind = "renewal-lease"

    /// A short digest of a stored record (nil: none), never its content.
    static func fingerprint(of envelope: Envelope?) -> String {
        guard let envelope else { return "none" }
        var hash = SHA256()
        hash.update(data: Data(envelope.kind.utf8))
        hash.update(data: Data("\u{0}\(envelope.formatVersion)\u{0}\(envelope.updatedAt.timeIntervalSinceReferenceDate.bitPattern)\u{0}".utf8))
        hash.update(data: envelope.payload)
        return Base64URL.encode(Data(hash.finalize().prefix(16)))
    }
}

/// What a renewal does with the lease it found (rule by rule, see ``RenewalLease``).
enum LeaseDecision: Equatable {
    /// Take the lease (replacing `previous`, nil: none); after an abandoned one, wait `grace`
    /// before reading the record.
    case take(previous: Envelope?, grace: Bool)
    /// Another holder is alive (or not yet known to be gone): look again later.
    case wait
    /// The server refused a renewal from this very record.
    case refused
}

/// What a waiting renewal has seen of another's lease: the lease as first seen, and when.
struct LeaseWatch {
    private var seen: Envelope?
    private var since: ContinuousClock.Instant?

    /// What to do with `lease` (as stored in `envelope`) for a renewal from the record whose
    /// fingerprint is `from`, by session `session`, at `now`.
    mutating func decide(_ lease: RenewalLease?, envelope: Envelope?, from: String, session: String, term: Duration, now: ContinuousClock.Instant) -> LeaseDecision {
        guard let lease, lease.from == from else { return .take(previous: envelope, grace: false) }  // none, or over (rule 2)
        if lease.state == .refused { return .refused }
        // This session's own lease from an earlier renewal that ended without releasing it (the
        // store failed): no renewal of this session is running but the caller's.
        if lease.session == session { return .take(previous: envelope, grace: false) }
        guard seen == envelope, let since else {
            seen = envelope
            since = now
            return .wait
        }
        return now - since >= term ? .take(previous: envelope, grace: true) : .wait
    }
}

extension CredentialVault {
    /// The renewal lease of `account` and the record that holds it; nil when there is none.
    /// A lease that cannot be decoded is treated as none: it guards nothing a new lease cannot.
    func renewalLease(for account: AccountKey) async throws -> (lease: RenewalLease?, envelope: Envelope?) {
        guard let envelope = try await store.get(account.item(RenewalLease.item)) else { return (nil, nil) }
        return (try? JSONDecoder().decode(RenewalLease.self, from: envelope.payload), envelope)
    }

    /// Replaces the lease record `expected` (nil: none) with `lease` (nil: removes it), by
    /// compare-and-swap. Returns the record now stored, or nil when another process changed it
    /// first (or when `lease` is nil).
    func replaceLease(for account: AccountKey, ifCurrent expected: Envelope?, with lease: RenewalLease?) async throws -> Envelope? {
        // Whole seconds: every store gives them back exactly, so the record read back equals this one.
        let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        let envelope = try lease.map { Envelope(kind: RenewalLease.kind, payload: try JSONEncoder().encode($0), updatedAt: now) }
        guard try await store.replace(account.item(RenewalLease.item), ifCurrent: expected, with: envelope) else { return nil }
        return envelope
    }
}
