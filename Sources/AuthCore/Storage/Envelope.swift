// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Foundation

/// One stored record: an opaque payload with the metadata every store keeps beside it.
///
/// The payload is whatever the writer put there (a vault writes JSON, sealed when a cipher is
/// configured). `formatVersion` lets AuthMigration upgrade old records and refuse newer ones.
public struct Envelope: Sendable, Equatable, Codable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The version of the payload's format for its kind.
    public var formatVersion: Int
    /// What the payload holds, such as `bearer` or `device-id`.
    public var kind: String
    /// The record bytes; may hold secrets, so ``description`` never shows them.
    public var payload: Data
    /// When the record was last written.
    public var updatedAt: Date
    /// When the credential inside expires, if it does.
    public var expiresAt: Date?

    /// Creates an envelope.
    public init(formatVersion: Int = 1, kind: String, payload: Data, updatedAt: Date, expiresAt: Date? = nil) {
        self.formatVersion = formatVersion
        self.kind = kind
        self.payload = payload
        self.updatedAt = updatedAt
        self.expiresAt = expiresAt
    }

    /// Kind, version and size; never the payload.
    public var description: String {
        "Envelope(kind: \(kind), formatVersion: \(formatVersion), payload: \(payload.count) bytes, updatedAt: \(updatedAt))"
    }
    /// The same as ``description``.
    public var debugDescription: String { description }
    /// The metadata and the payload's size, never its bytes (`Data`'s own mirror lists short
    /// payloads byte by byte).
    public var customMirror: Mirror {
        Mirror(self, children: [
            "formatVersion": formatVersion, "kind": kind, "payload": "\(payload.count) bytes",
            "updatedAt": updatedAt, "expiresAt": expiresAt as Any,
        ], displayStyle: .struct)
    }
}
