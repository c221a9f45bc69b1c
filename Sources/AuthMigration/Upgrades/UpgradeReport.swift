// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore

/// What a bulk upgrade did to each record of the kinds it was asked about.
public struct UpgradeReport: Sendable, CustomStringConvertible {
    /// Records upgraded and written back at the current version.
    public var upgraded: [CredentialKey] = []
    /// Records already at the current version, left as they were.
    public var alreadyCurrent: [CredentialKey] = []
    /// Records left exactly as they were: unreadable, newer than the code knows, or a step failed.
    public var skipped: [SkippedRecord] = []
    /// How many records were of other kinds and not looked at further.
    public var otherKinds = 0

    /// Creates an empty report.
    public init() {}

    /// The skipped records whose format version is newer than this code knows (also in ``skipped``).
    public var newerThanKnown: [CredentialKey] = []

    /// Counts of each outcome.
    public var description: String {
        "UpgradeReport(upgraded: \(upgraded.count), alreadyCurrent: \(alreadyCurrent.count), skipped: \(skipped.count), newerThanKnown: \(newerThanKnown.count), otherKinds: \(otherKinds))"
    }
}
