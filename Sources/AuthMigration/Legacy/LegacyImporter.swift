// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore

/// Imports a legacy single-user credential layout into a `CredentialVault`, as a typed
/// credential of one account.
///
/// ```swift
/// let importer = LegacyImporter(vault: CredentialVault(store: sqliteStore))
/// let legacy = DirectoryKeyValueSource(directory: home.appendingPathComponent(".mytool"))
/// let result = try await importer.importCredential(
///     from: legacy, layouts: [.standard, .oldPrefixed], into: AccountKey(namespace: "api", account: "me"))
/// ```
///
/// **Idempotent.** Importing again finds the same credential in the vault and writes nothing
/// (``LegacyImportResult/Outcome/alreadyImported``). When the vault already holds a *different*
/// credential for the account, it is kept by default: anything in the vault was written by the
/// new code (a sign-in, or a renewal after an earlier import), so it is newer than the legacy
/// layout, which nothing updates any more. Pass ``ExistingCredentialPolicy/replace`` to overwrite.
///
/// **Non-destructive.** The legacy source is only read; removing it is the application's call.
public struct LegacyImporter: Sendable {
    /// What to do when the vault already holds a different credential for the account.
    public enum ExistingCredentialPolicy: Sendable, Hashable {
        /// Keep the vault's credential (the default): it is newer than the legacy layout.
        case keepExisting
        /// Overwrite it with the legacy credential.
        case replace
    }

    /// The vault credentials are written to (its cipher seals them).
    public let vault: CredentialVault
    /// What to do with a different credential already in the vault.
    public var existingCredentialPolicy: ExistingCredentialPolicy

    /// Creates an importer.
    /// - Parameters:
    ///   - vault: Where to write credentials.
    ///   - existingCredentialPolicy: What to do with a different credential already in the vault.
    public init(vault: CredentialVault, existingCredentialPolicy: ExistingCredentialPolicy = .keepExisting) {
        self.vault = vault
        self.existingCredentialPolicy = existingCredentialPolicy
    }

    /// Imports the credential that `layout` describes from `source` into `account`.
    ///
    /// - Parameters:
    ///   - source: Where the legacy values are.
    ///   - layout: Which key names to read and which credential they make.
    ///   - account: The account the credential belongs to.
    ///   - item: The vault item to write (the vault's default credential item unless given).
    /// - Returns: What happened; ``LegacyImportResult/Outcome/nothingFound`` when the layout's
    ///   main key has no value.
    /// - Throws: ``MigrationError`` `.missingLegacyValue` or `.invalidLegacyValue` for an
    ///   incomplete or malformed layout (nothing is written); the source's or vault's errors.
    public func importCredential(
        from source: any KeyValueSource, layout: LegacyLayout, into account: AccountKey,
        item: String = CredentialVault.credentialItem
    ) async throws -> LegacyImportResult {
        let key = account.item(item)
        let values = try await LegacyValues.read(layout, from: source)
        guard values[layout.primaryKey] != nil else {
            return LegacyImportResult(outcome: .nothingFound, layout: layout.name, kind: nil, key: key, foundKeys: values.found)
        }
        switch layout.shape {
        case .bearer(let access, let refresh, let expires, let scope):
            let tokens = BearerTokenSet(
                accessToken: try values.required(access, layout: layout), refreshToken: values[refresh],
                expiresAt: try values.date(expires, layout: layout), scope: values[scope])
            return try await write(tokens, at: key, layout: layout, found: values.found)
        case .guest(let token, let device, let expires):
            let guest = GuestToken(
                token: try values.required(token, layout: layout), expiresAt: try values.date(expires, layout: layout),
                deviceID: try values.required(device, layout: layout))
            return try await write(guest, at: key, layout: layout, found: values.found)
        case .apiKeyHeader(let name, let header, let prefix):
            let apiKey = APIKeyHeaderCredential(headerName: header, key: try values.required(name, layout: layout), prefix: prefix)
            return try await write(apiKey, at: key, layout: layout, found: values.found)
        }
    }

    /// Imports with the first of `layouts` whose main key has a value in `source`.
    /// - Returns: That import's result, or ``LegacyImportResult/Outcome/nothingFound`` (naming
    ///   the last layout) when no layout is present.
    public func importCredential(
        from source: any KeyValueSource, layouts: [LegacyLayout], into account: AccountKey,
        item: String = CredentialVault.credentialItem
    ) async throws -> LegacyImportResult {
        var last = LegacyImportResult(outcome: .nothingFound, layout: "none", kind: nil, key: account.item(item), foundKeys: [])
        for layout in layouts {
            last = try await importCredential(from: source, layout: layout, into: account, item: item)
            if last.outcome != .nothingFound { return last }
        }
        return last
    }

    /// Writes `credential` at `key` unless the vault already holds it, or holds another one
    /// that ``existingCredentialPolicy`` keeps.
    ///
    /// Each write is conditional on the record the decision was made from
    /// (``/AuthCore/CredentialStore/replace(_:ifCurrent:with:)``): a sign-in or renewal that
    /// another process writes between the read and the write is never overwritten by the
    /// legacy credential. The decision is then made again, from the new record, at most
    /// ``maximumWriteAttempts`` times.
    /// - Throws: `CredentialStoreError` `.unavailable` when the record changed every time.
    private func write<C: Credential>(_ credential: C, at key: CredentialKey, layout: LegacyLayout, found: [String]) async throws -> LegacyImportResult {
        func result(_ outcome: LegacyImportResult.Outcome) -> LegacyImportResult {
            LegacyImportResult(outcome: outcome, layout: layout.name, kind: C.kind, key: key, foundKeys: found)
        }
        for _ in 0..<Self.maximumWriteAttempts {
            let existing = try await vault.store.get(key)
            if let existing {
                if existing.kind == C.kind, try await readable(C.self, at: key) == credential {
                    return result(.alreadyImported)
                }
                guard existingCredentialPolicy == .replace else { return result(.keptExisting) }
            }
            if try await vault.replace(credential, at: key, ifCurrent: existing) != nil {
                return result(existing == nil ? .imported : .replacedExisting)
            }
            try Task.checkCancellation()
        }
        throw CredentialStoreError.unavailable("the record at \(key) changed during each of \(Self.maximumWriteAttempts) attempts to import the legacy credential; nothing was written, try again")
    }

    /// How many times ``write(_:at:layout:found:)`` decides again after the record changed.
    private static let maximumWriteAttempts = 8

    /// The credential at `key`, or nil when the record cannot be read as one (another kind, a
    /// newer format, sealed with another key): such a record is different from any legacy
    /// credential. A store that cannot be read at all is an error, never "different".
    private func readable<C: Credential>(_ type: C.Type, at key: CredentialKey) async throws -> C? {
        do {
            return try await vault.load(type, at: key)
        } catch let error as CredentialStoreError where [.corrupted, .incompatibleVersion, .cipher].contains(error.code) {
            return nil
        }
    }
}
