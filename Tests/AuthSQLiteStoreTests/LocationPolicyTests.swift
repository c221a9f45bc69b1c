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
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The database's folder gets the file store's directory checks (owned by this user, writable by
/// no one else), and no link at the database path or beside it is ever followed. A refusal is a
/// `CredentialStoreError` with code `.invalidArgument` naming the path, and nothing is created.
@Suite struct LocationPolicyTests {
    @Test func aDanglingLinkAtTheDatabasePathIsRefusedAndItsTargetNeverCreated() async throws {
        try await TestSupport.withTemporaryDirectory { directory in
            let victim = try Self.victimFolder(in: directory)
            let path = directory.appendingPathComponent("store.sqlite").path
            let target = victim.appendingPathComponent("planted.sqlite").path
            #expect(symlink(target, path) == 0)

            await Self.expectRefusal(naming: path) { _ = try await SQLiteCredentialStore.open(at: path) }
            #expect(!FileManager.default.fileExists(atPath: target), "the store created its database through the link")
            #expect(try FileManager.default.contentsOfDirectory(atPath: victim.path) == ["keep.txt"])
        }
    }

    @Test func aLinkToAnExistingDatabaseIsRefusedAndTheDatabaseLeftUntouched() async throws {
        try await TestSupport.withTemporaryDirectory { directory in
            let victim = try Self.victimFolder(in: directory)
            let target = victim.appendingPathComponent("real.sqlite").path
            let real = try await SQLiteCredentialStore.open(at: target)
            try await real.put(TestSupport.envelope("kept"), for: CredentialKey(namespace: "n", account: "a", item: "i"))
            try await real.close()
            let before = try Data(contentsOf: URL(fileURLWithPath: target))
            let path = directory.appendingPathComponent("store.sqlite").path
            #expect(symlink(target, path) == 0)

            await Self.expectRefusal(naming: path) { _ = try await SQLiteCredentialStore.open(at: path) }
            #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == before)
            #expect(try FileManager.default.contentsOfDirectory(atPath: victim.path).sorted() == ["keep.txt", "real.sqlite"])
        }
    }

    @Test(arguments: ["-wal", "-shm", "-journal"], [false, true])
    func aLinkPlantedBesideTheDatabaseIsRefused(suffix: String, dangling: Bool) async throws {
        try await TestSupport.withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("store.sqlite").path
            let store = try await SQLiteCredentialStore.open(at: path)
            try await store.put(TestSupport.envelope("kept"), for: CredentialKey(namespace: "n", account: "a", item: "i"))
            try await store.close()
            let victim = try Self.victimFolder(in: directory)
            let target = victim.appendingPathComponent(dangling ? "planted" : "keep.txt").path
            #expect(symlink(target, path + suffix) == 0)

            await Self.expectRefusal(naming: path + suffix) { _ = try await SQLiteCredentialStore.open(at: path) }
            #expect(try FileManager.default.contentsOfDirectory(atPath: victim.path) == ["keep.txt"])
            #expect(try Data(contentsOf: victim.appendingPathComponent("keep.txt")) == Data("victim".utf8))
        }
    }

    /// `0o1777` is `/tmp`'s mode: the sticky bit stops others from renaming or deleting the
    /// database, not from planting a `-wal` or `-shm` file or a link before it exists, so it is
    /// refused like any folder others can write to.
    @Test(arguments: [0o777, 0o1777, 0o770, 0o702])
    func aFolderOthersCanWriteToIsRefused(mode: Int) async throws {
        try await TestSupport.withTemporaryDirectory { directory in
            let folder = directory.appendingPathComponent("shared")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
            #expect(chmod(folder.path, mode_t(mode)) == 0)
            let path = folder.appendingPathComponent("store.sqlite").path

            await Self.expectRefusal(naming: folder.path, saying: "other users can write to it", code: .insecurePermissions) {
                _ = try await SQLiteCredentialStore.open(at: path)
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)  // nothing created
        }
    }

    @Test(.enabled(if: geteuid() == 0, "changing a folder's owner needs root"))
    func aFolderOfAnotherUserIsRefused() async throws {
        try await TestSupport.withTemporaryDirectory { directory in
            let folder = directory.appendingPathComponent("theirs")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
            #expect(chmod(folder.path, 0o700) == 0)
            #expect(chown(folder.path, 65534, 65534) == 0)  // nobody
            let path = folder.appendingPathComponent("store.sqlite").path

            await Self.expectRefusal(naming: folder.path, saying: "belongs to user id 65534", code: .foreignOwner) {
                _ = try await SQLiteCredentialStore.open(at: path)
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        }
    }

    @Test(.enabled(if: geteuid() == 0, "changing a file's owner needs root"))
    func aDatabaseFileOfAnotherUserIsRefused() async throws {
        try await TestSupport.withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("store.sqlite").path
            let store = try await SQLiteCredentialStore.open(at: path)
            try await store.close()
            #expect(chown(path, 65534, 65534) == 0)
            let before = try Data(contentsOf: URL(fileURLWithPath: path))

            await Self.expectRefusal(naming: path, saying: "belongs to user id 65534", code: .foreignOwner) {
                _ = try await SQLiteCredentialStore.open(at: path)
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        }
    }

    @Test func theCallersOwnLinkToTheFolderIsFollowed() async throws {
        try await TestSupport.withTemporaryDirectory { directory in
            let real = directory.appendingPathComponent("real")
            try FileManager.default.createDirectory(at: real, withIntermediateDirectories: false)
            let link = directory.appendingPathComponent("link")
            #expect(symlink(real.path, link.path) == 0)
            let key = CredentialKey(namespace: "n", account: "a", item: "i")

            let store = try await SQLiteCredentialStore.open(at: link.appendingPathComponent("store.sqlite").path)
            try await store.put(TestSupport.envelope("v"), for: key)
            #expect(try await store.get(key)?.payload == Data("v".utf8))
            try await store.close()
            #expect(FileManager.default.fileExists(atPath: real.appendingPathComponent("store.sqlite").path))
        }
    }

    // MARK: - Helpers

    /// A folder outside the store's, holding `keep.txt`.
    static func victimFolder(in directory: URL) throws -> URL {
        let victim = directory.appendingPathComponent("victim")
        try FileManager.default.createDirectory(at: victim, withIntermediateDirectories: false)
        #expect(FileManager.default.createFile(atPath: victim.appendingPathComponent("keep.txt").path, contents: Data("victim".utf8)))
        return victim
    }

    /// Expects `body` to throw a `CredentialStoreError` (`.invalidArgument`, carrying the policy's
    /// refusal with `code`) naming `path` whose message contains `text`.
    @discardableResult
    static func expectRefusal(
        naming path: String,
        saying text: String = "is a symbolic link",
        code: StoreDirectoryPolicy.Refusal.Code = .symbolicLink,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ body: () async throws -> Void
    ) async -> CredentialStoreError? {
        do {
            try await body()
            Issue.record("the store opened instead of refusing \(path)", sourceLocation: sourceLocation)
            return nil
        } catch let error as CredentialStoreError {
            #expect(error.path == path, "\(error)", sourceLocation: sourceLocation)
            #expect(error.message.contains(text), "\(error)", sourceLocation: sourceLocation)
            #expect(error.code == .invalidArgument, sourceLocation: sourceLocation)
            #expect((error.underlying as? StoreDirectoryPolicy.Refusal)?.code == code, sourceLocation: sourceLocation)
            return error
        } catch {
            Issue.record("expected a CredentialStoreError, got \(error)", sourceLocation: sourceLocation)
            return nil
        }
    }
}
