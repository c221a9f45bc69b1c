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
/// are a credential like any other). An empty jar is no record. Saves are serialised and each
/// takes its snapshot once it holds the lock, so the last save to finish always writes the
/// newest state.
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

    /// Writes the jar's current snapshot; removes the record when the jar holds nothing to keep.
    /// - Throws: Whatever the credential store or the cipher throws, or an encoding error
    ///   (``hasUnsavedChanges`` is then true until a save succeeds).
    public func save(_ jar: CookieJar) async throws {
        do {
            try await write(jar)
            lastSaveFailed.withLock { $0 = false }
        } catch {
            lastSaveFailed.withLock { $0 = true }
            throw error
        }
    }

    private func write(_ jar: CookieJar) async throws {
        try await locks.withLock(account) {
            let snapshot = jar.snapshot()
            guard !snapshot.cookies.isEmpty else { return try await store.delete(key) }
            let payload = try vault.seal(JSONEncoder().encode(snapshot), key: key, kind: Self.kind)
            let expiries = snapshot.cookies.map(\.expiresAt)
            // The record expires with its last cookie, unless it holds a session cookie.
            let expiresAt = expiries.contains(nil) ? nil : expiries.compactMap { $0 }.max()
            let envelope = Envelope(
                formatVersion: CookieJarSnapshot.currentFormatVersion, kind: Self.kind,
                payload: payload, updatedAt: now(), expiresAt: expiresAt
            )
            try await store.put(envelope, for: key)
        }
    }

    /// The saved snapshot, or nil when none was saved.
    /// - Throws: `CredentialStoreError.corrupted` when the record is not a cookie jar or cannot
    ///   be decoded (the record is left in place), `.incompatibleVersion` when it was written by
    ///   newer code, `.cipher` when it does not open with the vault's cipher, or whatever the
    ///   credential store throws.
    public func loadSnapshot() async throws -> CookieJarSnapshot? {
        guard let envelope = try await store.get(key) else { return nil }
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
        if let snapshot = try await loadSnapshot() { jar.restore(snapshot) }
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

    /// Removes the saved jar.
    public func delete() async throws {
        try await locks.withLock(account) { try await store.delete(key) }
    }
}
