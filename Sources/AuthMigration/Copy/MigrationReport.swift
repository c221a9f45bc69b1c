// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore

/// What a store-to-store migration did, or (for a dry run) would do, to each source record.
///
/// Every record found in the source appears in exactly one of ``copied``, ``alreadyPresent``,
/// ``conflicts``, ``skipped`` and ``vanished``. A move also lists in ``removedFromSource`` the
/// records it removed from the source, each only after its copy in the target was verified.
public struct MigrationReport: Sendable, CustomStringConvertible {
    /// Whether this is a dry run's report: nothing was written or removed.
    public var isDryRun: Bool
    /// Copy or move.
    public var mode: StoreMigration.Mode
    /// Records found in the source when the run started.
    public var total = 0
    /// Records written to the target and verified (dry run: records that would be written).
    public var copied: [CredentialKey] = []
    /// Records the target already held identically (written by an earlier, perhaps interrupted, run).
    public var alreadyPresent: [CredentialKey] = []
    /// Records for which the target holds a different record, kept by the conflict policy; each
    /// stays in the source.
    public var conflicts: [CredentialKey] = []
    /// Records left in the source because they could not be read, written or verified, and why.
    public var skipped: [SkippedRecord] = []
    /// Records listed in the source but gone when read.
    public var vanished: [CredentialKey] = []
    /// For a move, the source records removed after their verified copy (dry run: that would be).
    public var removedFromSource: [CredentialKey] = []

    /// Creates an empty report.
    public init(isDryRun: Bool, mode: StoreMigration.Mode) {
        self.isDryRun = isDryRun
        self.mode = mode
    }

    /// Whether every source record is now (or, for a dry run, would be) in the target.
    public var isComplete: Bool { skipped.isEmpty && conflicts.isEmpty }

    /// Counts of each outcome; never a payload.
    public var description: String {
        "MigrationReport(\(isDryRun ? "dry run, " : "")\(mode), total: \(total), copied: \(copied.count), alreadyPresent: \(alreadyPresent.count), "
            + "conflicts: \(conflicts.count), skipped: \(skipped.count), vanished: \(vanished.count), removedFromSource: \(removedFromSource.count))"
    }

    mutating func record(_ outcome: RecordOutcome, _ key: CredentialKey) {
        switch outcome {
        case .copied: copied.append(key)
        case .alreadyPresent: alreadyPresent.append(key)
        case .conflict: conflicts.append(key)
        case .vanished: vanished.append(key)
        default: break
        }
    }
}
