// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthFileStore
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

@Suite struct PermissionTests {
    @Test func createdDirectoriesAre0700AndFiles0600() async throws {
        try await TestFiles.withTemporaryFolder { folder in
            let store = try FileCredentialStore(directory: folder.appendingPathComponent("deep/store"))
            try await store.put(TestFiles.envelope("v"), for: CredentialKey(namespace: "n", account: "a", item: "i"))
            try await store.withRefreshLock(for: AccountKey(namespace: "n", account: "a")) {}

            #expect(TestFiles.mode(store.directory.path) == 0o700)
            #expect(TestFiles.mode(folder.appendingPathComponent("deep").path) == 0o700)
            let paths = try TestFiles.allPaths(under: store.directory)
            #expect(paths.contains { $0.hasSuffix(".rec") } && paths.contains { $0.hasSuffix(".lock") })
            for relative in paths {
                let path = store.directory.path + "/" + relative
                #expect(TestFiles.mode(path) == (TestFiles.isDirectory(path) ? 0o700 : 0o600), "\(relative)")
            }
        }
    }

    @Test(arguments: [0o777, 0o770, 0o720, 0o702])
    func directoryWritableByOthersIsRefused(mode: Int) async throws {
        try await TestFiles.withTemporaryFolder { folder in
            let directory = folder.appendingPathComponent("shared")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
            #expect(chmod(directory.path, mode_t(mode)) == 0)
            let error = #expect(throws: FileStoreError.self) { try FileCredentialStore(directory: directory) }
            #expect(error?.code == .insecurePermissions)
            #expect(error?.path == directory.path)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)  // nothing written
        }
    }

    @Test func existingPrivateDirectoryIsAccepted() async throws {
        try await TestFiles.withTemporaryFolder { folder in
            let directory = folder.appendingPathComponent("mine")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
            #expect(chmod(directory.path, 0o750) == 0)
            let store = try FileCredentialStore(directory: directory)
            try await store.put(TestFiles.envelope("v"), for: CredentialKey(namespace: "n", account: "a", item: "i"))
            #expect(try await store.namespaces() == ["n"])
            #expect(TestFiles.mode(directory.path) == 0o750)  // left as the user set it
        }
    }

    @Test func aFileInsteadOfADirectoryIsRefused() async throws {
        try await TestFiles.withTemporaryFolder { folder in
            let file = folder.appendingPathComponent("file")
            #expect(FileManager.default.createFile(atPath: file.path, contents: Data()))
            let error = #expect(throws: FileStoreError.self) { try FileCredentialStore(directory: file) }
            #expect(error?.code == .notADirectory)
        }
    }

    @Test(.enabled(if: geteuid() == 0, "changing a directory's owner needs root"))
    func directoryOfAnotherUserIsRefused() async throws {
        try await TestFiles.withTemporaryFolder { folder in
            let directory = folder.appendingPathComponent("theirs")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
            #expect(chmod(directory.path, 0o700) == 0)
            #expect(chown(directory.path, 4242, 4242) == 0)
            let error = #expect(throws: FileStoreError.self) { try FileCredentialStore(directory: directory) }
            #expect(error?.code == .foreignOwner)
        }
    }
}
