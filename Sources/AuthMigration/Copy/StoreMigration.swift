// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore
import Foundation

/// Copies or moves every record of one credential store into another, such as a
/// `FileCredentialStore` into a `SQLiteCredentialStore`.
///
/// ```swift
/// let source = try FileCredentialStore(directory: old, options: .init(quarantinesCorruptedRecords: false))
/// let target = try await SQLiteCredentialStore.open(at: newPath)
/// let migration = StoreMigration(from: source, to: target, mode: .move)
/// print(try await migration.dryRun())                  // what would happen
/// let report = try await migration.run { print($0.bar()) }
/// ```
///
/// Records are copied as envelopes: kind, format version, times and the payload bytes exactly as
/// stored, so sealed records stay sealed and no key is needed. A move first writes a probe record
/// to the target and stops (``MigrationError`` code `.sameStore`) if the source sees it: two
/// handles on one database or directory look like two stores. Then, for each source record:
/// 1. read it; one that cannot be read is reported in ``MigrationReport/skipped`` and stays;
/// 2. if the target already holds an identical record, it counts as done (so a run is
///    idempotent, and a run after an interruption picks up where it stopped);
///    if the target holds a different one, the ``ConflictPolicy`` decides;
/// 3. write it to the target, read it back and compare (kind, version, payload bytes, times);
/// 4. for a move, and only after that check, remove it from the source (if the source still
///    holds what was copied).
///
/// Interrupted at any point (even killed), a run leaves every record in the source, the target,
/// or both identically; running again completes the work with the same end result.
///
/// For a `FileCredentialStore` source, open it with `quarantinesCorruptedRecords: false` so that
/// a damaged record that is reported and skipped also stays exactly where it was.
public struct StoreMigration: Sendable {
    /// Whether source records stay after their copy is verified.
    public enum Mode: Sendable, Hashable {
        /// Leave the source as it is.
        case copy
        /// Remove each source record once its copy in the target is verified.
        case move
    }

    /// What to do when the target already holds a *different* record under the same key.
    public enum ConflictPolicy: Sendable, Hashable {
        /// Keep the target's record (the default): it may have been written by the application
        /// since an earlier migration. The source record stays and is reported as a conflict.
        case keepTarget
        /// Overwrite the target's record with the source's.
        case replaceTarget
        /// Overwrite it only when the source record's `updatedAt` is later.
        case newerWins
    }

    /// Where records come from.
    public let source: any CredentialStore
    /// Where records go.
    public let target: any CredentialStore
    /// Copy or move.
    public var mode: Mode
    /// What to do with a different record already in the target.
    public var conflictPolicy: ConflictPolicy
    /// Only these namespaces, when set; all by default.
    public var namespaces: Set<String>?

    /// Creates a migration; nothing happens until ``run(progress:)`` or ``dryRun(progress:)``.
    /// - Parameters:
    ///   - source: The store to read (and, for a move, empty).
    ///   - target: The store to fill.
    ///   - mode: ``Mode/copy`` (default) or ``Mode/move``.
    ///   - conflictPolicy: What to do with a different record already in the target.
    ///   - namespaces: Only these namespaces, when given.
    public init(
        from source: any CredentialStore, to target: any CredentialStore, mode: Mode = .copy,
        conflictPolicy: ConflictPolicy = .keepTarget, namespaces: Set<String>? = nil
    ) {
        self.source = source
        self.target = target
        self.mode = mode
        self.conflictPolicy = conflictPolicy
        self.namespaces = namespaces
    }

    /// Copies (or moves) every record, reporting progress after each.
    /// - Parameter progress: Called after each record, in order.
    /// - Returns: What happened to each record.
    /// - Throws: The store's error when the source cannot be listed or either store becomes
    ///   unavailable (records done so far stay done; running again finishes the rest);
    ///   `CancellationError` when the task is cancelled (checked between records);
    ///   ``MigrationError`` code `.sameStore` for a move whose source and target are one store
    ///   (every record would count as copied, then be removed), before any record is touched.
    public func run(progress: @Sendable (MigrationProgress) -> Void = { _ in }) async throws -> MigrationReport {
        try await perform(dryRun: false, progress: progress)
    }

    /// Reports what ``run(progress:)`` would do, writing and removing nothing.
    ///
    /// Source and target are read as in a run; ``MigrationReport/copied`` lists the records that
    /// would be written, and for a move ``MigrationReport/removedFromSource`` those that would be
    /// removed.
    public func dryRun(progress: @Sendable (MigrationProgress) -> Void = { _ in }) async throws -> MigrationReport {
        try await perform(dryRun: true, progress: progress)
    }

    private func perform(dryRun: Bool, progress: @Sendable (MigrationProgress) -> Void) async throws -> MigrationReport {
        var report = MigrationReport(isDryRun: dryRun, mode: mode)
        if mode == .move, !dryRun { try await requireDistinctStores() }
        let keys = try await StoreWalker.keys(of: source, namespaces: namespaces)
        report.total = keys.count
        for (index, key) in keys.enumerated() {
            try Task.checkCancellation()
            let outcome = try await migrate(key, dryRun: dryRun, report: &report)
            report.record(outcome, key)
            progress(MigrationProgress(done: index + 1, total: keys.count, key: key, outcome: outcome))
        }
        return report
    }

    /// Throws `.sameStore` when a record written to the target shows in the source: two handles
    /// on one SQLite file or directory (another path to it, a caching wrapper) look like two
    /// stores, and a move between them found every record already in the target, then removed
    /// it from the source, which was the target. The probe record is removed again.
    private func requireDistinctStores() async throws {
        let probe = CredentialKey(namespace: "authkit-migration-probe", account: UUID().uuidString, item: "probe")
        let envelope = Envelope(kind: "migration-probe", payload: Data(UUID().uuidString.utf8), updatedAt: Date())
        try await target.put(envelope, for: probe)
        let seen: Envelope?
        do {
            seen = try await source.get(probe)
        } catch {
            try? await target.delete(probe)
            throw error
        }
        let sameStore = seen?.payload == envelope.payload
        do {
            try await target.delete(probe)
        } catch where sameStore {
            // The verdict matters more than the probe left behind (it is in the one store).
        }
        guard !sameStore else {
            throw MigrationError(code: .sameStore, message: "the source and the target of the move are the same store (a record written to the target appeared in the source); nothing was moved")
        }
    }
}
