// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import AuthCore

/// What one legacy import did.
public struct LegacyImportResult: Sendable, Equatable, CustomStringConvertible {
    /// The outcome of an import.
    public enum Outcome: Sendable, Hashable {
        /// The credential was written to the vault.
        case imported
        /// The vault already held exactly this credential (an earlier import); nothing was written.
        case alreadyImported
        /// The vault held a different credential, which was kept (``LegacyImporter/ExistingCredentialPolicy/keepExisting``).
        case keptExisting
        /// The vault held a different credential, which was replaced (``LegacyImporter/ExistingCredentialPolicy/replace``).
        case replacedExisting
        /// The source has no value under the layout's main key; nothing was written.
        case nothingFound
    }

    /// What happened.
    public var outcome: Outcome
    /// The name of the layout that was read.
    public var layout: String
    /// The kind of credential built (`bearer`, `guest`, `api-key-header`), nil when nothing was found.
    public var kind: String?
    /// Where the credential belongs in the vault.
    public var key: CredentialKey
    /// The legacy key names that held a value (never the values).
    public var foundKeys: [String]

    /// Creates a result.
    public init(outcome: Outcome, layout: String, kind: String?, key: CredentialKey, foundKeys: [String]) {
        self.outcome = outcome
        self.layout = layout
        self.kind = kind
        self.key = key
        self.foundKeys = foundKeys
    }

    /// Whether the vault now holds the legacy credential (just written, or written before).
    public var vaultHoldsLegacyCredential: Bool { outcome == .imported || outcome == .alreadyImported || outcome == .replacedExisting }

    /// Outcome, layout, kind, key and key names; never a value.
    public var description: String {
        "LegacyImportResult(\(outcome), layout: \(layout), kind: \(kind ?? "none"), key: \(key), found: \(foundKeys))"
    }
}
