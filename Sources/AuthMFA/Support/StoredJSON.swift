// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import Foundation

/// Reads and writes the JSON records of this module in a ``/AuthCore/CredentialStore``.
///
/// A record that cannot be decoded is reported as `CredentialStoreError.corrupted` and left in
/// place; a record of a newer format version as `.incompatibleVersion`.
struct StoredJSON<Value: Codable & Sendable>: Sendable {
    /// The envelope kind, such as `otp.replay`.
    let kind: String
    /// The format version this code writes and reads.
    let formatVersion: Int

    /// The value stored at `key`, or nil when there is none.
    func load(from store: any CredentialStore, key: CredentialKey) async throws -> Value? {
        guard let envelope = try await store.get(key) else { return nil }
        guard envelope.formatVersion <= formatVersion else {
            throw CredentialStoreError.incompatibleVersion(found: envelope.formatVersion, supported: formatVersion, key: key)
        }
        guard envelope.kind == kind else {
            throw CredentialStoreError.corrupted("expected a record of kind \(kind), found \(envelope.kind)", key: key)
        }
        do {
            return try JSONDecoder().decode(Value.self, from: envelope.payload)
        } catch {
            // The decoding error may quote payload bytes; report only its kind.
            throw CredentialStoreError.corrupted("the \(kind) record is not valid JSON of the expected shape", key: key)
        }
    }

    /// Writes `value` at `key`.
    func save(_ value: Value, to store: any CredentialStore, key: CredentialKey, now: Date) async throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let payload: Data
        do {
            payload = try encoder.encode(value)
        } catch {
            throw CredentialStoreError(code: .invalidArgument, message: "the \(kind) record could not be encoded", key: key)
        }
        try await store.put(Envelope(formatVersion: formatVersion, kind: kind, payload: payload, updatedAt: now), for: key)
    }
}
