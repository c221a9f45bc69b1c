// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore

/// A record that a migration or a bulk upgrade left where it was, and why.
///
/// The record is not lost: it stays in its source (or, for an upgrade, unchanged in its store).
public struct SkippedRecord: Sendable, CustomStringConvertible {
    /// What the migration was doing when it gave up on the record.
    public struct Stage: Hashable, Sendable, CustomStringConvertible {
        private let raw: String
        private init(_ raw: String) { self.raw = raw }
        /// Reading the record from the source (a corrupted or unreadable record).
        public static let readingSource = Stage("readingSource")
        /// Reading the record already at the same key in the target.
        public static let readingTarget = Stage("readingTarget")
        /// Writing the copy into the target.
        public static let writingTarget = Stage("writingTarget")
        /// Reading the copy back: the target did not return what was written.
        public static let verifying = Stage("verifying")
        /// Removing the source record after its copy was verified (the copy is in place).
        public static let removingSource = Stage("removingSource")
        /// Upgrading the record to the current format version.
        public static let upgrading = Stage("upgrading")
        /// A text form of the stage.
        public var description: String { raw }
    }

    /// The record concerned.
    public let key: CredentialKey
    /// What the migration was doing.
    public let stage: Stage
    /// A readable cause, free of secrets.
    public let reason: String
    /// The error behind it, with anything that could quote stored values withheld.
    public let error: (any Error)?

    /// Creates a report entry.
    public init(key: CredentialKey, stage: Stage, reason: String, error: (any Error)? = nil) {
        self.key = key
        self.stage = stage
        self.reason = reason
        self.error = error.map(RedactedFailure.wrap)
    }

    /// `key (stage): reason`.
    public var description: String { "\(key) (\(stage)): \(reason)" }
}

extension SkippedRecord {
    /// An entry for `error`, with the store's code named in the reason.
    static func failure(_ key: CredentialKey, _ stage: Stage, _ error: any Error) -> SkippedRecord {
        let reason: String
        if let store = error as? CredentialStoreError {
            reason = "\(store.code): \(store.message)"
        } else if let migration = error as? MigrationError {
            reason = "\(migration.code): \(migration.message)"
        } else {
            reason = String(describing: RedactedFailure.wrap(error))
        }
        return SkippedRecord(key: key, stage: stage, reason: reason, error: error)
    }
}
