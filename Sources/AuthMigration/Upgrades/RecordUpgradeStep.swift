// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Foundation

/// One registered upgrade of a record kind's payload from one format version to a later one.
///
/// Steps are identified and append-only, like database migrations: once shipped, a step is never
/// edited or removed, and a new format adds a new step after the last one.
public struct RecordUpgradeStep: Sendable, CustomStringConvertible {
    /// The step's unique name, such as `bearer-v2-scope-array`.
    public let identifier: String
    /// The record kind it upgrades, such as `bearer`.
    public let kind: String
    /// The format version it reads.
    public let fromVersion: Int
    /// The format version it produces.
    public let toVersion: Int
    /// Turns an unsealed payload of ``fromVersion`` into one of ``toVersion``.
    public let transform: @Sendable (Data) throws -> Data

    /// `identifier (kind vN → vM)`.
    public var description: String { "\(identifier) (\(kind) v\(fromVersion) → v\(toVersion))" }
}
