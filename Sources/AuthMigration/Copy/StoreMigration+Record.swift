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
            // Only over the record read above: one the app wrote meanwhile is newer, and stays.
            guard try await target.replace(key, ifCurrent: existing, with: original) else {
                report.skipped.append(SkippedRecord(
                    key: key, stage: .writingTarget,
                    reason: "the target record changed while it was being copied; it was kept, and so was the source record"))
                return .skipped
            }
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
            // Removed only if it is still the record read now: the app (a renewal in another
            // process sharing the store) may write it between this read and the removal.
            guard let current = try await source.get(key), current.holdsSameRecord(as: copied),
                  try await source.replace(key, ifCurrent: current, with: nil) else {
                report.skipped.append(SkippedRecord(
                    key: key, stage: .removingSource,
                    reason: "the source record changed or disappeared while it was being copied; whatever it holds was kept"))
                return false
            }
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
