// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore

extension StoreMigration {
    /// Migrates one record; skipped records are added to `report.skipped`.
    /// - Throws: Only errors that stop the whole run (store unavailable, cancellation).
    func migrate(_ key: CredentialKey, dryRun: Bool, report: inout MigrationReport) async throws -> RecordOutcome {
        func skip(_ stage: SkippedRecord.Stage, _ error: any Error) throws -> RecordOutcome {
            try StoreWalker.skip(key, at: stage, error, in: &report.skipped)
            return .skipped
        }
        let original: Envelope
        do {
            guard let found = try await source.get(key) else { return .vanished }
            original = found
        } catch {
            return try skip(.readingSource, error)
        }
        let existing: Envelope?
        do {
            existing = try await target.get(key)
        } catch {
            return try skip(.readingTarget, error)
        }
        if let existing {
            if existing.holdsSameRecord(as: original) {
                return try await removeFromSource(key, copied: original, dryRun: dryRun, report: &report) ? .alreadyPresent : .skipped
            }
            guard replaces(existing, with: original) else { return .conflict }
        }
        guard !dryRun else {
            return try await removeFromSource(key, copied: original, dryRun: true, report: &report) ? .copied : .skipped
        }
        do {
            try await target.put(original, for: key)
        } catch {
            return try skip(.writingTarget, error)
        }
        do {
            guard let copy = try await target.get(key), copy.holdsSameRecord(as: original) else {
                report.skipped.append(SkippedRecord(
                    key: key, stage: .verifying,
                    reason: "the target did not give back the record that was written; the source record was kept"))
                return .skipped
            }
        } catch {
            return try skip(.verifying, error)
        }
        return try await removeFromSource(key, copied: original, dryRun: false, report: &report) ? .copied : .skipped
    }

    /// For a move, removes the source record whose verified copy is in the target — if the
    /// source still holds exactly what was copied. Returns false (and reports why) when it stays.
    private func removeFromSource(_ key: CredentialKey, copied: Envelope, dryRun: Bool, report: inout MigrationReport) async throws -> Bool {
        guard mode == .move else { return true }
        guard !dryRun else {
            report.removedFromSource.append(key)
            return true
        }
        do {
            guard let current = try await source.get(key), current.holdsSameRecord(as: copied) else {
                report.skipped.append(SkippedRecord(
                    key: key, stage: .removingSource,
                    reason: "the source record changed or disappeared while it was being copied; whatever it holds was kept"))
                return false
            }
            try await source.delete(key)
            report.removedFromSource.append(key)
            return true
        } catch {
            try StoreWalker.skip(key, at: .removingSource, error, in: &report.skipped)
            return false
        }
    }

    /// Whether the conflict policy lets the source record overwrite a different target record.
    private func replaces(_ existing: Envelope, with original: Envelope) -> Bool {
        switch conflictPolicy {
        case .keepTarget: false
        case .replaceTarget: true
        case .newerWins: original.updatedAt > existing.updatedAt
        }
    }
}
