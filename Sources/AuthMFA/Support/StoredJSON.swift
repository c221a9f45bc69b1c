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

    /// The most times ``update(in:key:now:_:)`` reads and writes a record before it gives
    /// up: each conflict means another writer changed the record meanwhile, so this many in a row
    /// only happen under contention that does not let up.
    static var maxUpdateAttempts: Int { 16 }

    /// The value stored at `key`, or nil when there is none.
    func load(from store: any CredentialStore, key: CredentialKey) async throws -> Value? {
        guard let envelope = try await store.get(key) else { return nil }
        return try decode(envelope, key: key)
    }

    /// Writes `value` at `key`.
    func save(_ value: Value, to store: any CredentialStore, key: CredentialKey, now: Date) async throws {
        try await store.put(try encode(value, key: key, now: now), for: key)
    }

    /// Changes the value at `key` by compare-and-swap: reads the record, lets `change` decide
    /// from the value read (nil when there is none), and writes its new value only if the record
    /// is still the one read (``/AuthCore/CredentialStore/replace(_:ifCurrent:with:)``); when another
    /// writer, in this process or another one sharing the store, changed it meanwhile, reads
    /// again and asks `change` again. So an update is never lost and a value is never used twice,
    /// whatever lock the caller holds.
    ///
    /// - Parameters:
    ///   - store: The store holding the record.
    ///   - key: The record.
    ///   - now: The clock; read once per attempt, and passed to `change` and written as the
    ///     record's `updatedAt`.
    ///   - change: Given the current value and the time, returns the value to write (nil: write
    ///     nothing) and the result to return once it is written (or at once, when nothing is).
    /// - Returns: The result of the last call of `change`: the one whose value was written, or
    ///   that wrote nothing.
    /// - Throws: ``MFAError`` `.writeConflict` when each of ``maxUpdateAttempts`` writes lost to another
    ///   writer; ``/AuthCore/CredentialStoreError`` when the store fails or the record cannot be read.
    ///   Nothing is written then.
    func update<Result: Sendable>(
        in store: any CredentialStore,
        key: CredentialKey,
        now: @Sendable () -> Date,
        _ change: @Sendable (Value?, Date) throws -> (write: Value?, result: Result)
    ) async throws -> Result {
        let attempts = Self.maxUpdateAttempts
        for _ in 0..<attempts {
            let current = try await store.get(key)
            let date = now()
            let decision = try change(try current.map { try decode($0, key: key) }, date)
            guard let value = decision.write else { return decision.result }
            if try await store.replace(key, ifCurrent: current, with: try encode(value, key: key, now: date)) {
                return decision.result
            }
        }
        throw MFAError.writeConflict(kind: kind, attempts: attempts)
    }

    /// The value an envelope read at `key` holds.
    private func decode(_ envelope: Envelope, key: CredentialKey) throws -> Value {
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

    /// The envelope that stores `value` at `key`, written at `now`.
    private func encode(_ value: Value, key: CredentialKey, now: Date) throws -> Envelope {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let payload: Data
        do {
            payload = try encoder.encode(value)
        } catch {
            throw CredentialStoreError(code: .invalidArgument, message: "the \(kind) record could not be encoded", key: key)
        }
        return Envelope(formatVersion: formatVersion, kind: kind, payload: payload, updatedAt: now)
    }
}
