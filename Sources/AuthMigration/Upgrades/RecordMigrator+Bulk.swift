// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
import Foundation

extension RecordMigrator {
    /// Upgrades, on demand, every record of the given credential types in `store` to the types'
    /// current format versions.
    ///
    /// Each record is read through a `CredentialVault` configured with this migrator and
    /// `cipher`, exactly as an application read would: the vault opens the sealed payload, runs
    /// the steps, checks that the result decodes as the type, then seals and writes it back. So a
    /// bulk upgrade and an upgrade on read produce the same record, and the sealing rules live in
    /// one place (the vault). Records of other kinds are not touched.
    ///
    /// ```swift
    /// let report = try await migrator.upgradeAll(in: store, types: [BearerTokenSet.self, Profile.self], cipher: cipher)
    /// ```
    /// A record that cannot be read, is newer than its type's version, or that a step cannot
    /// upgrade is listed in ``UpgradeReport/skipped`` and left exactly as it was.
    /// - Parameters:
    ///   - store: The store to upgrade in place.
    ///   - types: The credential types whose records to upgrade; their `formatVersion` is the target.
    ///   - cipher: The cipher the application's vault uses, if any.
    ///   - clock: Stamps `updatedAt` of rewritten records.
    ///   - progress: Called after each record with the number done and the total.
    /// - Throws: The store's error when it cannot be listed, or is unavailable (the records done
    ///   so far stay upgraded; running again finishes the rest); `CancellationError`.
    public func upgradeAll(
        in store: any CredentialStore,
        types: [any Credential.Type],
        cipher: (any CredentialCipher)? = nil,
        clock: any AuthClock = SystemClock(),
        progress: @Sendable (_ done: Int, _ total: Int) -> Void = { _, _ in }
    ) async throws -> UpgradeReport {
        let vault = CredentialVault(store: store, cipher: cipher, upgrader: self, clock: clock)
        var byKind: [String: any Credential.Type] = [:]
        for type in types where byKind[type.kind] == nil { byKind[type.kind] = type }
        var report = UpgradeReport()
        let keys = try await StoreWalker.keys(of: store)
        for (index, key) in keys.enumerated() {
            try Task.checkCancellation()
            defer { progress(index + 1, keys.count) }
            guard let envelope = try await StoreWalker.read(key, from: store, skipped: &report.skipped) else { continue }
            guard let type = byKind[envelope.kind] else {
                report.otherKinds += 1
                continue
            }
            if envelope.formatVersion == type.formatVersion {
                report.alreadyCurrent.append(key)
                continue
            }
            if envelope.formatVersion > type.formatVersion {
                report.refuseNewer(key, found: envelope.formatVersion, supported: type.formatVersion)
                continue
            }
            do {
                try await Self.load(type, from: vault, at: key)
                report.upgraded.append(key)
            } catch {
                try StoreWalker.skip(key, at: .upgrading, error, in: &report.skipped)
            }
        }
        return report
    }

    /// Upgrades, on demand, every record of `kinds` (all kinds with steps when nil) in a store
    /// whose payloads are **not sealed**, to the newest version the steps reach.
    ///
    /// Use this for records that have no credential type in the program (such as a device id)
    /// or for stores without a cipher; use ``upgradeAll(in:types:cipher:clock:progress:)`` when
    /// payloads are sealed. An upgraded record is written back with `updatedAt` set to `clock`'s
    /// time; a record that cannot be read or upgraded is skipped and left as it was.
    /// - Throws: The store's error when it cannot be listed, or is unavailable; `CancellationError`.
    public func upgradeAll(
        in store: any CredentialStore,
        kinds: Set<String>? = nil,
        clock: any AuthClock = SystemClock()
    ) async throws -> UpgradeReport {
        let wanted = kinds ?? Set(self.kinds)
        var report = UpgradeReport()
        for key in try await StoreWalker.keys(of: store) {
            try Task.checkCancellation()
            guard let envelope = try await StoreWalker.read(key, from: store, skipped: &report.skipped) else { continue }
            do {
                guard wanted.contains(envelope.kind) else {
                    report.otherKinds += 1
                    continue
                }
                guard let latest = latestVersion(of: envelope.kind), envelope.formatVersion != latest else {
                    report.alreadyCurrent.append(key)
                    continue
                }
                if envelope.formatVersion > latest {
                    report.refuseNewer(key, found: envelope.formatVersion, supported: latest)
                    continue
                }
                var upgraded = try upgrade(envelope, to: latest, key: key)
                upgraded.updatedAt = clock.now()
                // Only over the record read: a renewal that wrote a current record meanwhile (in
                // any process) keeps it, as the vault's own upgrade on read does.
                guard try await store.replace(key, ifCurrent: envelope, with: upgraded) else {
                    report.skipped.append(SkippedRecord(key: key, stage: .upgrading, reason: "the record changed while it was being upgraded; what it holds now was kept"))
                    continue
                }
                report.upgraded.append(key)
            } catch {
                try StoreWalker.skip(key, at: .upgrading, error, in: &report.skipped)
            }
        }
        return report
    }

    private static func load<C: Credential>(_ type: C.Type, from vault: CredentialVault, at key: CredentialKey) async throws {
        _ = try await vault.load(C.self, at: key)
    }
}

extension UpgradeReport {
    /// Records a record that is newer than the code knows; it is left untouched.
    mutating func refuseNewer(_ key: CredentialKey, found: Int, supported: Int) {
        let error = CredentialStoreError.incompatibleVersion(found: found, supported: supported, key: key)
        skipped.append(SkippedRecord(key: key, stage: .upgrading, reason: error.message, error: error))
        newerThanKnown.append(key)
    }
}
