// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Foundation
import GRDB

/// Converts between ``Envelope`` / names and the columns of `credential_record`.
///
/// Decoding is strict: a column of the wrong type, an integer that does not fit `Int`, or a
/// name that is not UTF-8 is reported as `.corrupted` (with the record's key) instead of being
/// guessed at, and the row is left in place for inspection.
enum RecordCodec {
    /// The SQL columns `RecordReader` decodes, in order.
    static let envelopeColumns = "kind, format_version, payload, updated_at, expires_at"

    /// A name as the BLOB the schema stores: its UTF-8 bytes.
    static func blob(_ name: String) -> Data { Data(name.utf8) }

    /// The arguments `(namespace, account, item)` of a record key.
    static func arguments(_ key: CredentialKey) -> StatementArguments {
        [blob(key.namespace), blob(key.account), blob(key.item)]
    }

    /// The arguments `(namespace, account)` of an account key.
    static func arguments(_ account: AccountKey) -> StatementArguments {
        [blob(account.namespace), blob(account.account)]
    }

    /// The arguments of an upsert: the key, then the envelope's columns.
    static func upsertArguments(_ envelope: Envelope, for key: CredentialKey) -> StatementArguments {
        arguments(key) + [
            blob(envelope.kind),
            envelope.formatVersion,
            envelope.payload,
            envelope.updatedAt.timeIntervalSinceReferenceDate,
            envelope.expiresAt?.timeIntervalSinceReferenceDate,
        ]
    }

    /// A stored name: a UTF-8 BLOB (or TEXT, if another tool wrote one).
    static func text(_ value: DatabaseValue) -> String? {
        switch value.storage {
        case .blob(let bytes): String(validating: bytes, as: UTF8.self)
        case .string(let string): string
        default: nil
        }
    }

    /// The names in `values`, in Swift's `sorted()` order.
    /// - Throws: `.corrupted` when one is not UTF-8.
    static func sortedNames(_ values: [DatabaseValue], what: String, path: String) throws -> [String] {
        try values.map { value in
            guard let name = text(value) else {
                throw CredentialStoreError.corrupted("a stored \(what) name is not UTF-8 text", path: path)
            }
            return name
        }
        .sorted()
    }

    static func corrupted(_ reason: String, _ key: CredentialKey, _ path: String) -> CredentialStoreError {
        .corrupted("the stored record cannot be decoded: \(reason); it was left in place", key: key, path: path)
    }
}
