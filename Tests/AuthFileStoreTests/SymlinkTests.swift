// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
@testable import AuthFileStore
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Someone who can write inside the store directory (here: the test itself, same user) replaces
/// a directory or file of the store with a symbolic link to a "victim" folder outside it. The
/// store must answer with a typed error naming the link instead of following it, leave the link
/// where it is, and leave every file outside the store exactly as it was.
@Suite struct SymlinkTests {
    static let alice = CredentialKey(namespace: "svc", account: "alice", item: "credential")
    static let bob = CredentialKey(namespace: "svc", account: "bob", item: "credential")
    static let secret = "alice-secret-payload"

    @Test func aNamespaceDirectoryLinkedOutsideIsNeverFollowed() async throws {
        try await Self.withScene { store, victim in
            let link = store.engine.layout.namespaceDirectory("svc")
            try Self.plantLink(at: link, to: victim.appendingPathComponent("svc"), copying: true)
            let before = try Self.snapshot(victim)

            await Self.expectRefusal(naming: link) { _ = try await store.get(Self.alice) }
            await Self.expectRefusal(naming: link) { try await store.put(TestFiles.envelope("new"), for: Self.alice) }
            await Self.expectRefusal(naming: link) { try await store.put(TestFiles.envelope("new"), for: Self.bob) }
            await Self.expectRefusal(naming: link) { try await store.delete(Self.alice) }
            await Self.expectRefusal(naming: link) { _ = try await store.items(of: Self.alice.accountKey) }
            await Self.expectRefusal(naming: link) { _ = try await store.accounts(in: "svc") }
            await Self.expectRefusal(naming: link) { try await store.deleteAccount(Self.alice.accountKey) }
            await Self.expectRefusal(naming: link) { try await store.deleteAll() }

            #expect(try Self.snapshot(victim) == before)
            #expect(Self.isLink(link), "the planted link was removed or replaced")
            #expect(try await store.namespaces() == [])  // a link is not part of the store
        }
    }

    @Test func anAccountDirectoryLinkedOutsideIsNeverFollowed() async throws {
        try await Self.withScene { store, victim in
            let link = store.engine.layout.accountDirectory(Self.alice.accountKey)
            try Self.plantLink(at: link, to: victim.appendingPathComponent("alice"), copying: true)
            let before = try Self.snapshot(victim)

            await Self.expectRefusal(naming: link) { _ = try await store.get(Self.alice) }
            await Self.expectRefusal(naming: link) { try await store.put(TestFiles.envelope("new"), for: Self.alice) }
            await Self.expectRefusal(naming: link) { try await store.delete(Self.alice) }
            await Self.expectRefusal(naming: link) { _ = try await store.items(of: Self.alice.accountKey) }
            await Self.expectRefusal(naming: link) { try await store.deleteAccount(Self.alice.accountKey) }

            // Bob, beside the link, is served as usual; deleting everything removes his record
            // and reports the link it left in place.
            #expect(try await store.get(Self.bob)?.payload == Data("bob".utf8))
            #expect(try await store.accounts(in: "svc") == ["bob"])
            await Self.expectRefusal(naming: link) { try await store.deleteAll() }
            #expect(try await store.get(Self.bob) == nil)

            #expect(try Self.snapshot(victim) == before)
            #expect(Self.isLink(link), "the planted link was removed or replaced")
        }
    }

    @Test func aRecordFileLinkedOutsideIsNeverFollowed() async throws {
        try await Self.withScene { store, victim in
            let link = store.engine.layout.recordPath(Self.alice)
            try Self.plantLink(at: link, to: victim.appendingPathComponent("record"), copying: true)
            let before = try Self.snapshot(victim)

            await Self.expectRefusal(naming: link) { _ = try await store.get(Self.alice) }
            await Self.expectRefusal(naming: link) { try await store.put(TestFiles.envelope("new"), for: Self.alice) }
            await Self.expectRefusal(naming: link) { try await store.delete(Self.alice) }
            await Self.expectRefusal(naming: link) { try await store.deleteAccount(Self.alice.accountKey) }
            await Self.expectRefusal(naming: link) { try await store.deleteAll() }

            #expect(try Self.snapshot(victim) == before)
            #expect(Self.isLink(link), "the planted link was removed or replaced")
            #expect(try await store.get(Self.bob) == nil)  // deleteAll removed the real records
        }
    }

    @Test func aLinkedLocksDirectoryIsNeverFollowed() async throws {
        try await Self.withScene { store, victim in
            let link = store.directory.path + "/" + StoreLayout.locksDirectoryName
            try Self.plantLink(at: link, to: victim.appendingPathComponent("locks"), copying: false)
            try FileManager.default.createDirectory(at: victim.appendingPathComponent("locks"), withIntermediateDirectories: false)
            let before = try Self.snapshot(victim)

            await Self.expectRefusal(naming: link) {
                try await store.withRefreshLock(for: Self.alice.accountKey) { _ = Issue.record("the lock body ran") }
            }
            #expect(try Self.snapshot(victim) == before)
            #expect(Self.isLink(link))
        }
    }

    @Test func aLinkedNamespaceLockDirectoryIsNeverFollowed() async throws {
        try await Self.withScene { store, victim in
            try await store.withRefreshLock(for: Self.bob.accountKey) {}  // creates .locks/<svc>
            let link = store.engine.layout.lockDirectory("svc")
            try Self.plantLink(at: link, to: victim.appendingPathComponent("svc-locks"), copying: true)
            let before = try Self.snapshot(victim)

            await Self.expectRefusal(naming: link) {
                try await store.withRefreshLock(for: Self.alice.accountKey) { _ = Issue.record("the lock body ran") }
            }
            #expect(try Self.snapshot(victim) == before)
            #expect(Self.isLink(link))
        }
    }

    @Test(arguments: [false, true])
    func aLinkedRefreshLockFileIsNeverFollowed(dangling: Bool) async throws {
        try await Self.withScene { store, victim in
            try await store.withRefreshLock(for: Self.alice.accountKey) {}
            let link = store.engine.layout.lockPath(Self.alice.accountKey)
            let target = victim.appendingPathComponent("lock-target")
            try Self.plantLink(at: link, to: target, copying: !dangling)
            let before = try Self.snapshot(victim)

            await Self.expectRefusal(naming: link) {
                try await store.withRefreshLock(for: Self.alice.accountKey) { _ = Issue.record("the lock body ran") }
            }
            #expect(try Self.snapshot(victim) == before, "the link's target was created or changed")
            #expect(Self.isLink(link))
        }
    }

    @Test func aLinkedWriteLockFileIsNeverFollowed() async throws {
        try await Self.withScene { store, victim in
            let link = store.engine.layout.writeLockPath
            try Self.plantLink(at: link, to: victim.appendingPathComponent("write-lock"), copying: true)
            let before = try Self.snapshot(victim)

            await Self.expectRefusal(naming: link) { try await store.put(TestFiles.envelope("new"), for: Self.bob) }
            #expect(try Self.snapshot(victim) == before)
            #expect(Self.isLink(link))
        }
    }

    @Test func openingTheStoreNeverCleansUpThroughALink() async throws {
        try await Self.withScene { store, victim in
            let link = store.engine.layout.namespaceDirectory("svc")
            try Self.plantLink(at: link, to: victim.appendingPathComponent("svc"), copying: true)
            let leftover = victim.appendingPathComponent("svc/x616c696365/" + PosixFiles.temporaryPrefix + "0123456789abcdef")
            #expect(FileManager.default.createFile(atPath: leftover.path, contents: Data("victim".utf8)))
            let before = try Self.snapshot(victim)

            _ = try FileCredentialStore(directory: store.directory)
            #expect(try Self.snapshot(victim) == before)
        }
    }

    @Test func theCallersOwnLinkToTheStoreDirectoryIsFollowed() async throws {
        try await TestFiles.withTemporaryFolder { folder in
            let real = folder.appendingPathComponent("real")
            try FileManager.default.createDirectory(at: real, withIntermediateDirectories: false)
            #expect(chmod(real.path, 0o700) == 0)
            let link = folder.appendingPathComponent("link")
            #expect(symlink(real.path, link.path) == 0)

            let store = try FileCredentialStore(directory: link)
            try await store.put(TestFiles.envelope("v"), for: Self.alice)
            #expect(store.directory.path == TestFiles.realPath(real.path))
            #expect(try await FileCredentialStore(directory: real).get(Self.alice)?.payload == Data("v".utf8))
        }
    }

    // MARK: - Helpers

    /// Runs `body` with a store holding alice's and bob's records and an empty victim folder
    /// beside (outside) the store.
    static func withScene(_ body: (FileCredentialStore, URL) async throws -> Void) async throws {
        try await TestFiles.withTemporaryFolder { folder in
            let store = try FileCredentialStore(directory: folder.appendingPathComponent("store"))
            try await store.put(TestFiles.envelope(secret), for: alice)
            try await store.put(TestFiles.envelope("bob"), for: bob)
            let victim = folder.appendingPathComponent("victim")
            try FileManager.default.createDirectory(at: victim, withIntermediateDirectories: false)
            #expect(FileManager.default.createFile(atPath: victim.appendingPathComponent("keep.txt").path, contents: Data("victim".utf8)))
            try await body(store, victim)
        }
    }

    /// Replaces the file or directory at `path` with a symbolic link to `target`; with `copying`,
    /// `target` first receives a copy of what was at `path`, so following the link would find
    /// plausible store contents there.
    static func plantLink(at path: String, to target: URL, copying: Bool) throws {
        if copying {
            try FileManager.default.copyItem(atPath: path, toPath: target.path)
        }
        if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
        #expect(symlink(target.path, path) == 0)
    }

    /// Every file and folder under `folder`, with the bytes of the files.
    static func snapshot(_ folder: URL) throws -> [String: Data] {
        var result: [String: Data] = [:]
        for relative in try TestFiles.allPaths(under: folder) {
            let path = folder.path + "/" + relative
            result[relative] = TestFiles.isDirectory(path) ? Data() : try Data(contentsOf: URL(fileURLWithPath: path))
        }
        return result
    }

    static func isLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
    }

    /// Expects `body` to throw a `CredentialStoreError` (`.io`, carrying the policy's refusal) that
    /// names the link and says it is one, without any record contents.
    static func expectRefusal(
        naming link: String,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ body: () async throws -> Void
    ) async {
        do {
            try await body()
            Issue.record("the store did not refuse the link at \(link)", sourceLocation: sourceLocation)
        } catch let error as CredentialStoreError {
            #expect(error.path == link, "\(error)", sourceLocation: sourceLocation)
            #expect(error.message.contains("is a symbolic link"), "\(error)", sourceLocation: sourceLocation)
            #expect(error.code == .io, sourceLocation: sourceLocation)
            #expect((error.underlying as? StoreDirectoryPolicy.Refusal)?.code == .symbolicLink, sourceLocation: sourceLocation)
            #expect(!error.description.contains(secret), sourceLocation: sourceLocation)
        } catch {
            Issue.record("expected a CredentialStoreError, got \(error)", sourceLocation: sourceLocation)
        }
    }
}
