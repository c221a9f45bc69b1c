// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Foundation

/// Typed credentials on top of a ``CredentialStore``: encodes, seals, opens and decodes them.
///
/// ```swift
/// let vault = CredentialVault(store: store, cipher: try AESGCMCipher(key: key))
/// try await vault.save(tokens, for: account)
/// let current = try await vault.load(BearerTokenSet.self, for: account)
/// ```
/// A record of another kind, of a newer format version, or that cannot be opened or decoded gives
/// a typed `CredentialStoreError`; the record is never deleted because of it.
public struct CredentialVault: Sendable {
    /// The item name credentials are stored under.
    public static let credentialItem = "credential"

    /// The store underneath.
    public let store: any CredentialStore
    /// The cipher that seals payloads, if any.
    public let cipher: (any CredentialCipher)?
    /// Upgrades records of older format versions when they are read, if configured.
    public let upgrader: (any EnvelopeUpgrading)?
    /// The store's refresh lock, when it has one (``RefreshLocking``): known when the vault is
    /// made, so no renewal asks the store what it can do.
    public let refreshLocking: (any RefreshLocking)?
    /// The store's change feed, when it has one (``CredentialChangeFeed``), likewise.
    public let changeFeed: (any CredentialChangeFeed)?
    private let clock: any AuthClock

    /// Creates a vault.
    public init(store: any CredentialStore, cipher: (any CredentialCipher)? = nil, upgrader: (any EnvelopeUpgrading)? = nil, clock: any AuthClock = SystemClock()) {
        self.store = store
        self.cipher = cipher
        self.upgrader = upgrader
        self.refreshLocking = store as? any RefreshLocking
        self.changeFeed = store as? any CredentialChangeFeed
        self.clock = clock
    }

    /// Reads the credential of an account, or nil when none is stored.
    public func load<C: Credential>(_ type: C.Type, for account: AccountKey, item: String = credentialItem) async throws -> C? {
        try await load(type, at: account.item(item))
    }

    /// Reads the credential at `key`, or nil when none is stored.
    /// - Throws: `CredentialStoreError` (`.corrupted`, `.incompatibleVersion`, `.cipher`, or the store's own).
    public func load<C: Credential>(_ type: C.Type, at key: CredentialKey) async throws -> C? {
        try await loadRecord(type, at: key)?.credential
    }

    /// Reads the credential at `key` with the record it came from, or nil when none is stored.
    /// - Throws: `CredentialStoreError` (`.corrupted`, `.incompatibleVersion`, `.cipher`, or the store's own).
    public func loadRecord<C: Credential>(_ type: C.Type, at key: CredentialKey) async throws -> StoredCredential<C>? {
        guard let stored = try await store.get(key) else { return nil }
        var envelope = stored
        guard envelope.kind == C.kind else {
            throw CredentialStoreError.corrupted("expected a record of kind '\(C.kind)' but found '\(envelope.kind)'", key: key)
        }
        if envelope.formatVersion > C.formatVersion {
            throw CredentialStoreError.incompatibleVersion(found: envelope.formatVersion, supported: C.formatVersion, key: key)
        }
        let payload = try open(envelope.payload, key: key, kind: envelope.kind)
        if envelope.formatVersion < C.formatVersion {
            guard let upgrader else {
                throw CredentialStoreError(code: .incompatibleVersion, message: "format version \(envelope.formatVersion) is older than \(C.formatVersion) and no upgrader is configured", key: key)
            }
            envelope.payload = payload
            envelope = try upgrader.upgrade(envelope, to: C.formatVersion, key: key)
            let credential = try decode(C.self, from: envelope.payload, key: key)
            // Fenced like a renewal: an upgrade never overwrites what another process wrote meanwhile.
            guard try await store.replace(key, ifCurrent: stored, with: try self.envelope(for: credential, key: key)) else {
                return try await loadRecord(type, at: key)
            }
            // Read back, so the record is the store's own encoding of it (the fence of a later write).
            return try await loadRecord(type, at: key)
        }
        return StoredCredential(credential: try decode(C.self, from: payload, key: key), envelope: envelope)
    }

    /// Stores the credential of an account, replacing the previous one atomically.
    public func save<C: Credential>(_ credential: C, for account: AccountKey, item: String = credentialItem) async throws {
        try await save(credential, at: account.item(item))
    }

    /// Stores a credential at `key`.
    public func save<C: Credential>(_ credential: C, at key: CredentialKey) async throws {
        try await store.put(try envelope(for: credential, key: key), for: key)
    }

    /// The sealed record of `credential`, stamped with the vault's clock.
    func envelope<C: Credential>(for credential: C, key: CredentialKey) throws -> Envelope {
        let json: Data
        do {
            json = try JSONEncoder().encode(credential)
        } catch {
            throw CredentialStoreError(code: .invalidArgument, message: "the \(C.kind) credential could not be encoded", key: key, underlying: error)
        }
        let payload = try seal(json, key: key, kind: C.kind)
        return Envelope(formatVersion: C.formatVersion, kind: C.kind, payload: payload, updatedAt: clock.now(), expiresAt: credential.expiresAt)
    }

    /// Removes the credential of an account (other items of the account stay).
    public func delete(for account: AccountKey, item: String = credentialItem) async throws {
        try await store.delete(account.item(item))
    }

    /// Seals the payload of a record that is not a ``Credential`` (a plug-in's own record, such
    /// as a cookie jar) as credentials are sealed: with the vault's cipher, bound to the record's
    /// key and kind, so that it opens only there. Without a cipher, the payload as it is.
    /// - Parameters:
    ///   - plaintext: The payload.
    ///   - key: Where the record is stored.
    ///   - kind: The record's kind.
    /// - Throws: `CredentialStoreError` `.cipher` when the cipher fails.
    public func seal(_ plaintext: Data, key: CredentialKey, kind: String) throws -> Data {
        guard let cipher else { return plaintext }
        return try cipher.seal(plaintext, context: Self.context(key, kind: kind))
    }

    /// Opens a payload ``seal(_:key:kind:)`` sealed for the same key and kind. Without a
    /// cipher, the payload as it is.
    /// - Parameters:
    ///   - payload: The stored payload.
    ///   - key: Where the record is stored.
    ///   - kind: The record's kind.
    /// - Throws: `CredentialStoreError` `.cipher` when it does not open (another key, another
    ///   record, tampered with, or not sealed).
    public func open(_ payload: Data, key: CredentialKey, kind: String) throws -> Data {
        guard let cipher else { return payload }
        do {
            return try cipher.open(payload, context: Self.context(key, kind: kind))
        } catch let error as CredentialStoreError {
            throw CredentialStoreError(code: error.code, message: error.message, key: key, underlying: error.underlying)
        }
    }

    private func decode<C: Credential>(_ type: C.Type, from payload: Data, key: CredentialKey) throws -> C {
        do {
            return try JSONDecoder().decode(C.self, from: payload)
        } catch {
            throw CredentialStoreError.corrupted("the stored \(C.kind) record could not be decoded", key: key, underlying: DecodingFailure(error))
        }
    }

    static func context(_ key: CredentialKey, kind: String) -> Data {
        Data([key.namespace, key.account, key.item, kind].joined(separator: "\u{0}").utf8)
    }
}

/// Upgrades stored records of an older format version; AuthMigration provides one.
///
/// ## Implementing
/// Return an envelope of `version` whose payload is the (unsealed) upgraded payload; throw
/// `CredentialStoreError` when no upgrade path exists.
public protocol EnvelopeUpgrading: Sendable {
    /// Upgrades an unsealed envelope to `version`.
    func upgrade(_ envelope: Envelope, to version: Int, key: CredentialKey) throws -> Envelope
}

/// A decoding error stripped of the values it quoted, so no secret leaks through its text: what
/// an error message says about a server's or a store's JSON that did not decode.
public struct DecodingFailure: Error, CustomStringConvertible {
    /// Where and how decoding failed, without the values.
    public let description: String
    /// Describes `error` (a `DecodingError`, or anything else as "undecodable data").
    public init(_ error: any Error) {
        switch error {
        case DecodingError.keyNotFound(let key, _): description = "missing key '\(key.stringValue)'"
        case DecodingError.typeMismatch(let type, let context): description = "wrong type at '\(context.codingPath.map(\.stringValue).joined(separator: "."))', expected \(type)"
        case DecodingError.valueNotFound(_, let context): description = "missing value at '\(context.codingPath.map(\.stringValue).joined(separator: "."))'"
        case DecodingError.dataCorrupted(let context): description = "malformed data at '\(context.codingPath.map(\.stringValue).joined(separator: "."))'"
        default: description = "undecodable data"
        }
    }
}
