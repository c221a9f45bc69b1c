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

@Suite struct FilePermissionTests {
    @Test func theDatabaseAndItsWALAndSharedMemoryFilesAreOwnerOnly() async throws {
        try await TestSupport.withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("private.sqlite").path
            let key = CredentialKey(namespace: "n", account: "a", item: "credential")
            let store = try await SQLiteCredentialStore.open(at: path)
            try await store.put(TestSupport.envelope("secret-ish"), for: key)
            for file in [path, path + "-wal", path + "-shm"] {
                #expect(FileManager.default.fileExists(atPath: file), "\(file) should exist while the store is open")
                #expect(try TestSupport.mode(file) == 0o600, "\(file) is not mode 0600")
            }
            try await store.close()
            #expect(!FileManager.default.fileExists(atPath: path + "-wal"), "closing should checkpoint and remove the WAL")

            // The WAL and shared-memory files created again on the next open are private too.
            let reopened = try await SQLiteCredentialStore.open(at: path)
            try await reopened.put(TestSupport.envelope("again"), for: key)
            for file in [path, path + "-wal", path + "-shm"] {
                #expect(try TestSupport.mode(file) == 0o600, "\(file) is not mode 0600 after reopening")
            }
        }
    }

    @Test func aMissingFolderIsCreatedOwnerOnly() async throws {
        try await TestSupport.withTemporaryDirectory { directory in
            let folder = directory.appendingPathComponent("nested/config")
            let path = folder.appendingPathComponent("store.sqlite").path
            let store = try await SQLiteCredentialStore.open(at: path)
            try await store.put(TestSupport.envelope("v"), for: CredentialKey(namespace: "n", account: "a", item: "i"))
            #expect(try TestSupport.mode(folder.path) == 0o700)
            #expect(try TestSupport.mode(path) == 0o600)
        }
    }
}
