// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore

/// The errors AuthMigration throws itself (stores and vaults throw `CredentialStoreError`).
///
/// A struct with an extensible ``Code``, so new cases do not break a `switch`. Compare codes:
/// `error.code == .versionGap`. The ``message`` says what was wrong; it never holds a secret.
public struct MigrationError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is.
    public typealias Code = ErrorCode<MigrationError>

    /// What kind of failure this is.
    public let code: Code
    /// A readable cause, free of secrets.
    public let message: String
    /// The record concerned, when there is one.
    public let key: CredentialKey?
    /// The lower-level error, when this one wraps another.
    public let underlying: (any Error)?

    /// Creates an error.
    public init(code: Code, message: String, key: CredentialKey? = nil, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.key = key
        self.underlying = underlying
    }

    /// `MigrationError.code: message [key] (caused by: …)`.
    public var description: String {
        var text = "MigrationError.\(code): \(message)"
        if let key { text += " [\(key)]" }
        if let underlying { text += " (caused by: \(String(describing: underlying)))" }
        return text
    }
}

extension ErrorCode where Domain == MigrationError {
    /// An upgrade step was registered under an identifier that is already taken.
    public static var duplicateStep: Self { Self("duplicateStep") }
    /// An upgrade step starts above the last registered version of its kind.
    public static var versionGap: Self { Self("versionGap") }
    /// An upgrade step starts below the last registered version of its kind: steps are
    /// append-only and a shipped step is never replaced.
    public static var overlappingStep: Self { Self("overlappingStep") }
    /// An upgrade step is malformed (empty identifier or kind, `to` not above `from`, `from` below 1).
    public static var invalidStep: Self { Self("invalidStep") }
    /// A legacy key name is not acceptable to its source (such as a path in a directory source).
    public static var invalidSourceKey: Self { Self("invalidSourceKey") }
    /// A legacy value could not be read from its source.
    public static var sourceUnreadable: Self { Self("sourceUnreadable") }
    /// A legacy value is present but malformed (such as an expiry that is not a date).
    public static var invalidLegacyValue: Self { Self("invalidLegacyValue") }
    /// A legacy layout found its main value but not another value it cannot do without.
    public static var missingLegacyValue: Self { Self("missingLegacyValue") }
    /// A move's source and target are one store (two handles on one database or directory): a
    /// record written to the target appeared in the source. Nothing was moved.
    public static var sameStore: Self { Self("sameStore") }
}
