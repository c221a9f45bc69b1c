// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthSQLiteStore
import Foundation
import Testing

/// Shared helpers: temporary folders, envelopes, file facts.
enum TestSupport {
    /// Runs `body` with a new empty folder, removed afterwards.
    static func withTemporaryDirectory<T>(_ body: (URL) async throws -> T) async throws -> T {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("AuthSQLiteStoreTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        return try await body(directory)
    }

    /// An envelope holding `text`.
    static func envelope(_ text: String, kind: String = "test", at seconds: TimeInterval = 1_700_000_000, expires: Date? = nil) -> Envelope {
        Envelope(kind: kind, payload: Data(text.utf8), updatedAt: Date(timeIntervalSince1970: seconds), expiresAt: expires)
    }

    /// The permission bits of the file at `path`.
    static func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        let mode = try #require(attributes[.posixPermissions] as? NSNumber)
        return mode.intValue & 0o777
    }

    /// The store error `body` throws, or nil when it throws something else or nothing.
    static func storeError(_ body: () async throws -> Void) async -> CredentialStoreError? {
        do {
            try await body()
            return nil
        } catch let error as CredentialStoreError {
            return error
        } catch {
            Issue.record("expected a CredentialStoreError, got \(error)")
            return nil
        }
    }
}
