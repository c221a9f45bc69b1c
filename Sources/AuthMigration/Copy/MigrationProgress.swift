// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore

/// What happened to one record of a store-to-store migration.
public struct RecordOutcome: Hashable, Sendable, CustomStringConvertible {
    private let raw: String
    private init(_ raw: String) { self.raw = raw }
    /// Written to the target and read back identical (dry run: would be written).
    public static let copied = RecordOutcome("copied")
    /// The target already held an identical record (an earlier run); nothing was written.
    public static let alreadyPresent = RecordOutcome("alreadyPresent")
    /// The target holds a different record, which was kept; the source record stays.
    public static let conflict = RecordOutcome("conflict")
    /// Left in the source because it could not be read, written or verified; see the report.
    public static let skipped = RecordOutcome("skipped")
    /// Listed in the source but gone when it was read (removed meanwhile by someone else).
    public static let vanished = RecordOutcome("vanished")
    /// A text form of the outcome.
    public var description: String { raw }
}

/// Progress of a store-to-store migration, reported after each record.
///
/// ```swift
/// let report = try await migration.run { progress in
///     print(progress.bar(width: 30))
/// }
/// ```
public struct MigrationProgress: Sendable, CustomStringConvertible {
    /// Records handled so far, this one included.
    public let done: Int
    /// Records found in the source when the run started.
    public let total: Int
    /// The record just handled.
    public let key: CredentialKey
    /// What happened to it.
    public let outcome: RecordOutcome

    /// Creates a progress value.
    public init(done: Int, total: Int, key: CredentialKey, outcome: RecordOutcome) {
        self.done = done
        self.total = total
        self.key = key
        self.outcome = outcome
    }

    /// `done / total`, 1 when there is nothing to do.
    public var fractionCompleted: Double { total == 0 ? 1 : Double(done) / Double(total) }

    /// `done/total key: outcome`.
    public var description: String { "\(done)/\(total) \(key): \(outcome)" }
}
