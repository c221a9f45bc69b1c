// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
public import Foundation
import Synchronization

/// Saves and loads the cookie jar of one account through any ``/AuthCore/CredentialStore``, so that the
/// jar survives a reload.
///
/// The jar is one record: item `cookies`, kind `cookie-jar`, a JSON ``CookieJarSnapshot`` as
/// payload (format version 1), sealed by the vault's cipher when it has one (the session cookies
/// are a credential like any other). An empty jar is no record. Within a process, saves are
/// serialised and each takes its snapshot once it holds the lock, so the last save to finish
/// writes the newest state.
///
/// Several processes may share the record, so a save never overwrites what another wrote for a
/// different reason than its own (``save(_:)``):
/// - The record belongs to one sign-in's session (``CookieJar/session``). A jar replaces only the
///   record it last read or wrote, or a record of its own session: a process still holding the
///   cookies of an older sign-in does not overwrite the newer sign-in's record, nor bring back a
///   record that a sign-out removed, however often it tries. A sign-in writes over any record,
///   a refresh over its own session's (``establish(_:session:replacing:)``); a sign-out removes
///   it (``delete()``).
/// - A record this code cannot read (written by newer code, sealed with another key, damaged) is
///   never overwritten by a save: the save fails with the reading's error and the record stays
///   until a sign-in or sign-out replaces it, or ``delete()`` removes it.
/// - A process whose account adopted another process's sign-in takes that sign-in's cookies from
///   the record before its next request (``follow(_:into:force:)``, which a
///   ``CookieSessionStrategy`` calls).
///
/// ```swift
/// let store = CookieJarStore(vault: CredentialVault(store: credentialStore, cipher: cipher), account: AccountKey(namespace: "api", account: "alice"))
/// let jar = try await store.loadJar()   // empty when nothing was saved
/// jar.setCookies(fromHeaderValues: ["sid=abc; Max-Age=3600"], for: url)
/// try await store.save(jar)
/// ```
public final class CookieJarStore: Sendable {
    /// The item name of the record.
    public static let item = "cookies"
    /// The envelope kind of the record.
    public static let kind = "cookie-jar"

    /// Where the record lives, and the cipher that seals it.
    public let vault: CredentialVault
    /// Where the record lives.
    public var store: any CredentialStore { vault.store }
    /// Whose jar this is.
    public let account: AccountKey
    private let now: @Sendable () -> Date
    private let locks = AccountLocks()
    private let lastSaveFailed = Mutex(false)
    /// The record as this object last read or wrote it; nil before the first read or write.
    private let lastSeen = Mutex<Envelope??>(nil)
    /// The sign-in whose cookies ``follow(_:into:force:)`` last looked for, so that it reads the store
    /// once per sign-in, not per request.
    private let followed = Mutex<UUID?>(nil)

    /// Creates a store for one account's jar, sealed by `vault`'s cipher.
    /// - Parameters:
    ///   - vault: The credential store and cipher (as ``/AuthCore/CredentialVaultKey`` has them).
    ///   - account: The account whose jar this is.
    ///   - now: The clock for the envelope's `updatedAt`.
    public init(vault: CredentialVault, account: AccountKey, now: @escaping @Sendable () -> Date = { Date() }) {
        self.vault = vault
        self.account = account
        self.now = now
    }

    /// Creates a store for one account's jar, kept unsealed.
    /// - Parameters:
    ///   - store: Any credential store (in memory, files, SQLite).
    ///   - account: The account whose jar this is.
    ///   - now: The clock for the envelope's `updatedAt`.
    public convenience init(store: any CredentialStore, account: AccountKey, now: @escaping @Sendable () -> Date = { Date() }) {
        self.init(vault: CredentialVault(store: store), account: account, now: now)
    }

    /// The key of the record.
    public var key: CredentialKey { account.item(Self.item) }

    /// Whether the last save failed, so that what the jar holds is not saved yet: a
    /// ``CookieMiddleware`` then saves again after its next request, whether or not that
    /// request changed the jar.
    public var hasUnsavedChanges: Bool { lastSaveFailed.withLock { $0 } }

    /// Writes the jar's current snapshot, or removes the record when the jar holds nothing to
    /// keep, unless the record changed since this object last read or wrote it and now holds
    /// another session than the jar's, or, for a session's jar, none (a sign-out removed it): the
    /// jar is then out of date, and the record stays as it is. A jar outside any session
    /// (``CookieJar/session`` nil) over a record outside any session is written, the last writer
    /// winning, as is one whose record was removed.
    /// - Returns: Whether the jar was written (false: the record belongs to another session).
    /// - Throws: Whatever the credential store or the cipher throws, an encoding error,
    ///   `CredentialStoreError.unavailable` when other processes of the same session rewrote the
    ///   record under every try, or (the record staying as it is) the error reading a record this
    ///   code cannot read, as ``loadSnapshot()`` throws it. ``hasUnsavedChanges`` is then true
    ///   until a save succeeds.
    @discardableResult
    public func save(_ jar: CookieJar) async throws -> Bool {
        try await recordingFailure {
            try await locks.withLock(account) { try await write(jar) }
        }
    }

    /// Writes the jar's cookies as the session of the sign-in `session`, then marks the jar with
    /// it (``CookieJar/session``): what a sign-in or a refresh does once the server accepted it,
    /// before its credential is stored.
    /// - Parameters:
    ///   - jar: The jar.
    ///   - session: The new sign-in's ``CookieSessionCredential/signInID``.
    ///   - renewed: For a refresh, the sign-in it renewed: the record is written only while it
    ///     holds that session (or is a record of an older version of this code, which has none),
    ///     so that a refresh another process's sign-in or sign-out overtook neither overwrites
    ///     the new record nor brings back the removed one. Nil for a sign-in, which writes over
    ///     any record.
    /// - Returns: Whether the record was written (false: overtaken, or for a refresh a record this
    ///   code cannot read; the jar is not marked).
    /// - Throws: As ``save(_:)``; the jar is not marked then.
    @discardableResult
    public func establish(_ jar: CookieJar, session: UUID, replacing renewed: UUID? = nil) async throws -> Bool {
        try await recordingFailure {
            try await locks.withLock(account) {
                var snapshot = jar.snapshot()
                snapshot.session = session
                let envelope = try envelope(of: snapshot)
                if let renewed {
                    // Not when a sign-out removed the record meanwhile, nor over another sign-in.
                    // A record this code cannot read is not written over either (as by a save).
                    guard let current = try await store.get(key), let stored = try? open(current), [renewed, nil].contains(stored.session),
                          try await store.replace(key, ifCurrent: current, with: envelope) else { return false }
                } else if let envelope {
                    try await store.put(envelope, for: key)
                } else {
                    try await store.delete(key)
                }
                lastSeen.withLock { $0 = .some(envelope) }
                jar.holdSession(session)
                return true
            }
        }
    }

    /// Before a request with the sign-in `session`'s credential: when the jar holds another
    /// session's cookies (that sign-in was made in another process sharing the store), replaces
    /// them with the record's, provided the record holds that session and can hold every cookie
    /// of the jar (session cookies are saved only with
    /// ``CookieJarConfiguration/persistSessionCookies``). The store is read once per sign-in,
    /// whatever the read gives, unless `force` (a renewal) asks again; a record of an older
    /// version of this code (no session) is taken into an empty jar.
    /// - Throws: As ``loadSnapshot()``; the jar is unchanged then.
    public func follow(_ session: UUID, into jar: CookieJar, force: Bool = false) async throws {
        guard jar.session != session, force || followed.withLock({ $0 }) != session else { return }
        try await locks.withLock(account) {
            guard jar.session != session, force || followed.withLock({ $0 }) != session else { return }
            followed.withLock { $0 = session }
            let (envelope, snapshot) = try await read()
            // Taken only when it is that session's: a record of another is not "seen" either,
            // or the jar's next save would replace it. Nor when the record cannot hold what the
            // jar holds: session cookies (no expiry) are saved only with `persistSessionCookies`,
            // and replacing a working one from such a record would end this process's session.
            let holdsAll = jar.configuration.persistSessionCookies || jar.allCookies.allSatisfy(\.isPersistent)
            if let snapshot, holdsAll, snapshot.session == session || (snapshot.session == nil && jar.count == 0) {
                jar.restore(snapshot)
                jar.holdSession(session)
                lastSeen.withLock { $0 = .some(envelope) }
            }
        }
    }

    /// Runs a write, keeping ``hasUnsavedChanges`` up to date.
    private func recordingFailure<T>(_ write: () async throws -> T) async throws -> T {
        do {
            let result = try await write()
            lastSaveFailed.withLock { $0 = false }
            return result
        } catch {
            lastSaveFailed.withLock { $0 = true }
            throw error
        }
    }

    /// ``save(_:)`` under the lock. A refusal leaves ``lastSeen`` as it was, so that every later
    /// save is refused too until the jar follows the record's session.
    private func write(_ jar: CookieJar) async throws -> Bool {
        let snapshot = jar.snapshot()
        let envelope = try envelope(of: snapshot)
        var expected: Envelope?
        if let seen = lastSeen.withLock({ $0 }) {
            expected = seen
        } else {
            // Never read nor written here: the record must be readable, and of this session.
            expected = try await store.get(key)
            guard try Self.session(of: expected.flatMap { try open($0) }, is: snapshot.session) else { return false }
        }
        // Three tries, against other processes of the same session writing in between.
        for _ in 0..<3 {
            if try await store.replace(key, ifCurrent: expected, with: envelope) {
                lastSeen.withLock { $0 = .some(envelope) }
                return true
            }
            // Changed elsewhere since: written again only over the same session. A removed record
            // stays removed for a session's jar (a sign-out); a jar outside any session writes
            // it again, as the last writer.
            let current = try await store.get(key)
            guard let current else {
                guard snapshot.session == nil else { return false }
                expected = nil
                continue
            }
            guard try Self.session(of: open(current), is: snapshot.session) else { return false }
            expected = current
        }
        throw CredentialStoreError(code: .unavailable, message: "the cookie jar record changed under every try to save it", key: key)
    }

    /// Whether `stored` is nil or holds `session`.
    private static func session(of stored: CookieJarSnapshot?, is session: UUID?) -> Bool {
        stored.map { $0.session == session } ?? true
    }

    /// The record of `snapshot`, sealed; nil for a snapshot with no cookie.
    private func envelope(of snapshot: CookieJarSnapshot) throws -> Envelope? {
        guard !snapshot.cookies.isEmpty else { return nil }
        let payload = try vault.seal(JSONEncoder().encode(snapshot), key: key, kind: Self.kind)
        let expiries = snapshot.cookies.map(\.expiresAt)
        // The record expires with its last cookie, unless it holds a session cookie.
        let expiresAt = expiries.contains(nil) ? nil : expiries.compactMap { $0 }.max()
        // Dates in whole seconds, which every store gives back exactly (PostgreSQL keeps a
        // `double precision` of seconds since 1970, in which most `Date`s do not round-trip),
        // so that the next save's `replace` finds the record it wrote.
        let wholeSeconds = { (date: Date, rule: FloatingPointRoundingRule) in Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(rule)) }
        return Envelope(
            formatVersion: CookieJarSnapshot.currentFormatVersion, kind: Self.kind,
            payload: payload, updatedAt: wholeSeconds(now(), .down), expiresAt: expiresAt.map { wholeSeconds($0, .up) }
        )
    }

    /// The saved snapshot, or nil when none was saved.
    /// - Throws: `CredentialStoreError.corrupted` when the record is not a cookie jar or cannot
    ///   be decoded (the record is left in place), `.incompatibleVersion` when it was written by
    ///   newer code, `.cipher` when it does not open with the vault's cipher, or whatever the
    ///   credential store throws.
    public func loadSnapshot() async throws -> CookieJarSnapshot? {
        try await locks.withLock(account) { try await read().snapshot }
    }

    /// The record and what it holds.
    private func read() async throws -> (envelope: Envelope?, snapshot: CookieJarSnapshot?) {
        let envelope = try await store.get(key)
        return (envelope, try envelope.flatMap { try open($0) })
    }

    /// The snapshot `envelope` holds.
    /// - Throws: As ``loadSnapshot()``.
    private func open(_ envelope: Envelope) throws -> CookieJarSnapshot {
        guard envelope.kind == Self.kind else {
            throw CredentialStoreError.corrupted("the record holds '\(envelope.kind)', not a cookie jar", key: key)
        }
        guard envelope.formatVersion <= CookieJarSnapshot.currentFormatVersion else {
            throw CredentialStoreError.incompatibleVersion(found: envelope.formatVersion, supported: CookieJarSnapshot.currentFormatVersion, key: key)
        }
        let payload = try vault.open(envelope.payload, key: key, kind: Self.kind)
        do {
            return try JSONDecoder().decode(CookieJarSnapshot.self, from: payload)
        } catch {
            // The decoder's own text can quote the payload, which holds cookie values: keep
            // only where decoding failed.
            throw CredentialStoreError.corrupted("the cookie jar record cannot be decoded (at '\(Self.codingPath(of: error))')", key: key)
        }
    }

    /// Replaces the contents of `jar` with the saved cookies; leaves it unchanged when nothing
    /// was saved.
    /// - Throws: As ``loadSnapshot()``; the jar is unchanged then.
    public func load(into jar: CookieJar) async throws {
        try await locks.withLock(account) {
            let (envelope, snapshot) = try await read()
            lastSeen.withLock { $0 = .some(envelope) }
            if let snapshot { jar.restore(snapshot) }
        }
    }

    /// A new jar holding the saved cookies (empty when nothing was saved).
    /// - Throws: As ``loadSnapshot()``.
    public func loadJar(
        configuration: CookieJarConfiguration = .init(),
        now: @escaping @Sendable () -> Date = { Date() }
    ) async throws -> CookieJar {
        let jar = CookieJar(configuration: configuration, now: now)
        try await load(into: jar)
        return jar
    }

    private static func codingPath(of error: any Error) -> String {
        let context: DecodingError.Context? = switch error as? DecodingError {
        case .dataCorrupted(let context), .keyNotFound(_, let context),
             .typeMismatch(_, let context), .valueNotFound(_, let context): context
        default: nil
        }
        return context?.codingPath.map(\.stringValue).joined(separator: ".") ?? ""
    }

    /// Removes the saved jar, whatever session it holds (a sign-out).
    public func delete() async throws {
        try await locks.withLock(account) {
            try await store.delete(key)
            lastSeen.withLock { $0 = .some(nil) }
        }
    }
}
