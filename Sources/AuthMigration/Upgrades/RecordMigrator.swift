// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
public import Foundation

/// Upgrades stored records from older format versions, one registered step at a time.
///
/// Register the steps of each record kind once, in order; hand the migrator to a
/// `CredentialVault` so records are upgraded when they are read (and written back upgraded), or
/// upgrade a whole store on demand with ``upgradeAll(in:types:cipher:clock:progress:)``.
///
/// ```swift
/// var migrator = RecordMigrator()
/// try migrator.register("profile-v2-rename-token", kind: "profile", from: 1, to: 2) { try renameToken($0) }
/// try migrator.register("profile-v3-add-scopes", kind: "profile", from: 2, to: 3) { try addScopes($0) }
/// let vault = CredentialVault(store: store, cipher: cipher, upgrader: migrator)
/// let profile = try await vault.load(Profile.self, for: account)   // a v1 record comes back as v3
/// ```
///
/// Steps are append-only: an identifier used twice, a step that starts above the last version of
/// its kind (a gap) or below it (rewriting history) is refused when it is registered. A record of
/// a newer version than the code knows is refused with `CredentialStoreError.incompatibleVersion`
/// and left as it is.
public struct RecordMigrator: EnvelopeUpgrading {
    private var stepsByKind: [String: [RecordUpgradeStep]] = [:]
    private var identifiers: Set<String> = []

    /// Creates a migrator with no steps.
    public init() {}

    /// Registers the step that upgrades `kind` records from version `from` to version `to`.
    ///
    /// - Parameters:
    ///   - identifier: A unique, stable name for the step; never reuse one.
    ///   - kind: The record kind (`Credential.kind`, such as `bearer`).
    ///   - from: The version the step reads: 1 or more for the first step of a kind, then exactly
    ///     the `to` of the kind's last step.
    ///   - to: The version the step produces; above `from`.
    ///   - step: Turns an unsealed payload of version `from` into one of version `to`. Throw when
    ///     the payload is not what the step expects: the record is then left as it was.
    /// - Throws: ``MigrationError`` `.duplicateStep`, `.versionGap`, `.overlappingStep` or `.invalidStep`.
    public mutating func register(
        _ identifier: String, kind: String, from: Int, to: Int,
        step: @escaping @Sendable (Data) throws -> Data
    ) throws(MigrationError) {
        guard !identifier.isEmpty, !kind.isEmpty else {
            throw MigrationError(code: .invalidStep, message: "an upgrade step needs a non-empty identifier and kind")
        }
        guard from >= 1, to > from else {
            throw MigrationError(code: .invalidStep, message: "upgrade step '\(identifier)' goes from v\(from) to v\(to); versions start at 1 and a step must raise the version")
        }
        guard !identifiers.contains(identifier) else {
            throw MigrationError(code: .duplicateStep, message: "an upgrade step named '\(identifier)' is already registered; steps are append-only, give a new step a new name")
        }
        if let last = stepsByKind[kind]?.last {
            if from > last.toVersion {
                throw MigrationError(code: .versionGap, message: "upgrade step '\(identifier)' starts at \(kind) v\(from) but the last step ends at v\(last.toVersion); register the steps in between first")
            }
            if from < last.toVersion {
                throw MigrationError(code: .overlappingStep, message: "upgrade step '\(identifier)' starts at \(kind) v\(from), before the end of step '\(last.identifier)' (v\(last.toVersion)); shipped steps are never replaced, append a step from v\(last.toVersion)")
            }
        }
        identifiers.insert(identifier)
        stepsByKind[kind, default: []].append(
            RecordUpgradeStep(identifier: identifier, kind: kind, fromVersion: from, toVersion: to, transform: step))
    }

    /// The steps of one kind, in order.
    public func steps(for kind: String) -> [RecordUpgradeStep] { stepsByKind[kind] ?? [] }

    /// The kinds that have at least one step.
    public var kinds: [String] { stepsByKind.keys.sorted() }

    /// The newest version the steps of `kind` reach, or nil when the kind has no steps.
    public func latestVersion(of kind: String) -> Int? { stepsByKind[kind]?.last?.toVersion }

    /// Upgrades an unsealed envelope to `version` by running each step in turn.
    ///
    /// The result has the new version and payload; `updatedAt` and `expiresAt` are kept.
    /// - Throws: `CredentialStoreError.incompatibleVersion` when the record is newer than
    ///   `version` or no chain of steps leads from its version to `version`;
    ///   `CredentialStoreError` `.corrupted` (naming the step) when a step throws.
    public func upgrade(_ envelope: Envelope, to version: Int, key: CredentialKey) throws -> Envelope {
        if envelope.formatVersion > version {
            throw CredentialStoreError.incompatibleVersion(found: envelope.formatVersion, supported: version, key: key)
        }
        var upgraded = envelope
        while upgraded.formatVersion < version {
            let current = upgraded.formatVersion
            guard let step = steps(for: envelope.kind).first(where: { $0.fromVersion == current }), step.toVersion <= version else {
                throw CredentialStoreError(
                    code: .incompatibleVersion,
                    message: "no registered upgrade step takes a '\(envelope.kind)' record from v\(current) to v\(version)", key: key)
            }
            do {
                upgraded.payload = try step.transform(upgraded.payload)
            } catch {
                throw CredentialStoreError.corrupted(
                    "upgrade step '\(step.identifier)' could not upgrade the record from v\(step.fromVersion); it was left as it was",
                    key: key, underlying: RedactedFailure.wrap(error))
            }
            upgraded.formatVersion = step.toVersion
        }
        return upgraded
    }

    /// Upgrades an unsealed envelope to the newest version its kind's steps reach (unchanged when
    /// the kind has no steps).
    /// - Throws: As ``upgrade(_:to:key:)``; a record newer than every step is `.incompatibleVersion`.
    public func upgradeToLatest(_ envelope: Envelope, key: CredentialKey) throws -> Envelope {
        guard let latest = latestVersion(of: envelope.kind) else { return envelope }
        return try upgrade(envelope, to: latest, key: key)
    }
}
