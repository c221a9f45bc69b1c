// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthFileStore
import AuthSQLiteStore
import AuthTestServer
import AuthTesting
import Foundation
import HTTPTypes
import GRDB
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Issue 18 item 9: the server rotates the refresh token, and the store cannot take the new one
/// for a while (its SQLite file or its write lock held elsewhere). Afterwards a fresh process with
/// only the store must renew without the server seeing a reused refresh token, and nobody may be
/// signed out.
@Suite struct StoreFaultRenewalTests {
    static let alice = AccountKey(namespace: "testserver", account: "alice")

    /// A lock on the store that another party holds, as another process would.
    protocol HeldLock { func release() throws }

    /// An exclusive SQLite transaction on the database file, from a connection of its own.
    struct SQLiteFileLock: HeldLock {
        let queue: DatabaseQueue
        init(path: String) throws {
            var configuration = Configuration()
            configuration.allowsUnsafeTransactions = true  // the transaction outlives one access on purpose
            // The store's own short writes (its renewal lease's beats) may hold the file for a
            // moment: wait for them rather than fail (GRDB's default fails at once).
            configuration.busyMode = .timeout(10)
            queue = try DatabaseQueue(path: path, configuration: configuration)
            try queue.inDatabase { db in try db.execute(sql: "BEGIN EXCLUSIVE") }
        }
        func release() throws { try queue.inDatabase { db in try db.execute(sql: "ROLLBACK") } }
    }

    /// The file store's write lock (`<root>/.lock`), held with `flock` on a descriptor of its own.
    struct FileStoreWriteLock: HeldLock {
        let fd: Int32
        init(directory: String) throws {
            fd = open(directory + "/.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
            guard fd >= 0, flock(fd, LOCK_EX) == 0 else { throw CocoaError(.fileLocking) }
        }
        func release() throws {
            flock(fd, LOCK_UN)
            close(fd)
        }
    }

    /// A small tmpfs of its own, filled up or remounted read-only (root ignores mode bits, so a
    /// read-only directory is simulated by a read-only file system).
    struct SmallFileSystem: HeldLock {
        let mountPoint: String

        /// Whether this process may mount one (root in a container that allows it).
        static let available: Bool = {
            let probe = FileManager.default.temporaryDirectory.appendingPathComponent("AuthKitMountProbe-\(UUID().uuidString)").path
            try? FileManager.default.createDirectory(atPath: probe, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: probe) }
            guard run("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", probe) else { return false }
            return run("umount", probe)
        }()

        @discardableResult
        static func run(_ arguments: String...) -> Bool {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = arguments
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            guard (try? process.run()) != nil else { return false }
            process.waitUntilExit()
            return process.terminationStatus == 0
        }

        static func mount(at path: String) throws {
            guard run("mount", "-t", "tmpfs", "-o", "size=4m,mode=0700", "tmpfs", path) else { throw CocoaError(.fileWriteUnknown) }
        }

        /// Fills the file system up.
        init(fillingUp mountPoint: String) throws {
            self.mountPoint = mountPoint
            let path = mountPoint + "/filler"
            guard FileManager.default.createFile(atPath: path, contents: nil), let filler = FileHandle(forWritingAtPath: path) else {
                throw CocoaError(.fileWriteUnknown)
            }
            let chunk = Data(count: 4096)
            while (try? filler.write(contentsOf: chunk)) != nil {}
            try? filler.close()
        }

        /// Remounts the file system read-only.
        init(remountingReadOnly mountPoint: String) throws {
            self.mountPoint = mountPoint
            guard Self.run("mount", "-o", "remount,ro", mountPoint) else { throw CocoaError(.fileWriteUnknown) }
        }

        /// Frees the space, or makes the file system writable again.
        func release() throws {
            guard FileManager.default.fileExists(atPath: mountPoint + "/filler") else {
                guard Self.run("mount", "-o", "remount,rw", mountPoint) else { throw CocoaError(.fileWriteUnknown) }
                return
            }
            try FileManager.default.removeItem(atPath: mountPoint + "/filler")
        }
    }

    @Test(arguments: ["sqlite", "file"], ["lock"])
    func aRotatedRefreshTokenReachesTheStoreAfterAFaultAndNobodyIsSignedOut(kind: String, fault: String) async throws {
        try await rotatedRefreshTokenSurvives(kind: kind, fault: fault)
    }

    /// A sign-out or sign-in that the failing store refuses while the rotated credential waits for
    /// it changed nothing, so it must not stop the write: the session gave the renewal up before
    /// the store had taken the change, and the refresh token the server issued last was lost (the
    /// next renewal presented the superseded one, and the server revoked the family).
    @Test(arguments: ["sqlite", "file"], ["sign-out", "sign-in"])
    func aSignInOrOutTheStoreRefusesKeepsTheRotatedRefreshToken(kind: String, change: String) async throws {
        try await rotatedRefreshTokenSurvives(kind: kind, fault: "lock", duringFault: change)
    }

    @Test(.enabled(if: SmallFileSystem.available, "needs permission to mount a tmpfs"), arguments: ["sqlite", "file"], ["full"])
    func aRotatedRefreshTokenSurvivesAFullFileSystem(kind: String, fault: String) async throws {
        try await rotatedRefreshTokenSurvives(kind: kind, fault: fault)
    }

    /// SQLite keeps its database open for writing, so only the file store can be remounted, and
    /// only before a renewal starts (not while the store holds a lock file open for writing).
    /// Then no refresh token is presented at all: the renewal lease cannot be written, and
    /// without it another process could present the same token. Requests fail with a typed
    /// storage error, nobody is signed out, and the renewal goes ahead once the store is writable.
    @Test(.enabled(if: SmallFileSystem.available, "needs permission to mount a tmpfs"))
    func aReadOnlyFileStoreDirectoryIsNotRenewedFromUntilItIsWritable() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("AuthKitStoreFault-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try SmallFileSystem.mount(at: directory.path)
        defer {
            SmallFileSystem.run("umount", directory.path)
            try? FileManager.default.removeItem(at: directory)
        }
        let path = directory.appendingPathComponent("store").path
        try await Harness.run { h in
            let events = AuthEvents()
            let recorder = EventRecorder(events)
            let container = h.container(store: try FileCredentialStore(directory: URL(fileURLWithPath: path), options: .init(lockTimeout: .milliseconds(200))))
            container.override(AuthEventsKey.self, with: events)
            let client = try await h.signedInClient("alice", container: container)
            h.server.clock.advance(by: 301)
            h.server.resetCounters()
            let readOnly = try SmallFileSystem(remountingReadOnly: directory.path)
            await #expect { try await client.send(.get, h.url("me")) } throws: { ($0 as? AuthError)?.code == .storage }
            #expect(h.server.counters.renewals == 0)
            try readOnly.release()
            #expect(try await client.send(.get, h.url("me")).status == .ok)
            #expect(h.server.counters.renewals == 1)
            #expect(h.server.counters.rejectedReuse == 0)
            #expect(!recorder.all.contains(.signedOut(Self.alice)))
            #expect(!recorder.all.contains { if case .reauthenticationRequired = $0 { true } else { false } })
        }
    }

    /// A renewal whose rotated credential the store refuses for a while (`fault`), and, with
    /// `duringFault`, a sign-out or sign-in the store refuses too: the credential lands once the
    /// store recovers, and nobody presents a superseded refresh token.
    func rotatedRefreshTokenSurvives(kind: String, fault: String, duringFault change: String? = nil) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("AuthKitStoreFault-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        if fault != "lock" { try SmallFileSystem.mount(at: directory.path) }
        defer {
            if fault != "lock" { SmallFileSystem.run("umount", directory.path) }
            try? FileManager.default.removeItem(at: directory)
        }
        let path = kind == "sqlite" ? directory.appendingPathComponent("credentials.sqlite").path : directory.appendingPathComponent("store").path
        // The refresh lock is waited for 2 s: after the fault, one process's renewal holds it
        // while another waits, which took longer than 0.2 s once on a loaded machine.
        func openStore() async throws -> any CredentialStore {
            kind == "sqlite"
                ? try await SQLiteCredentialStore.open(at: path, options: SQLiteStoreOptions(busyTimeout: .milliseconds(200), lockTimeout: .seconds(2)))
                : try FileCredentialStore(directory: URL(fileURLWithPath: path), options: .init(lockTimeout: .seconds(2)))
        }

        try await Harness.run { h in
            let events = AuthEvents()
            let recorder = EventRecorder(events)
            let container = h.container(store: try await openStore())
            container.override(AuthEventsKey.self, with: events)
            let client = try await h.signedInClient("alice", container: container)
            let signedIn = try #require(try await CredentialVault(store: try await openStore()).load(BearerTokenSet.self, for: Self.alice))
            h.server.clock.advance(by: 301)
            h.server.resetCounters()
            // The refresh is held 10 s at the server, long enough for the fault to start during
            // the renewal however late this task runs on a loaded machine (1 s was not, once).
            h.server.faults.inject(.delay(.seconds(10)), path: "/auth/refresh")

            // Each fault starts during the renewal.
            let request = Task { try await client.send(.get, h.url("me")) }
            try await h.refreshArrived()  // the refresh lock is taken; the refresh is at the server
            let lock: any HeldLock = switch (fault, kind) {
            case ("full", _): try SmallFileSystem(fillingUp: directory.path)
            case (_, "sqlite"): try SQLiteFileLock(path: path)
            default: try FileStoreWriteLock(directory: path)
            }
            // The renewal finishes while the store refuses writes: the request still succeeds.
            #expect(try await request.value.status == .ok)
            _ = await recorder.waitFor { $0.contains { if case .persistFailed = $0 { true } else { false } } }

            // Meanwhile another process cannot present the superseded refresh token: it waits for
            // the refresh lock (or cannot open the failing store) and reports the store unavailable.
            let renewalsDuringFault = h.server.counters.renewals
            do {
                let other = h.container(store: try await openStore()).makeClient(for: Self.alice, strategy: h.bearer())
                await #expect { try await other.send(.get, h.url("me")) } throws: { ($0 as? AuthError)?.code == .storage }
            } catch let error as CredentialStoreError {
                #expect(error.code == .unavailable || error.code == .io, "opening the failing store: \(error)")
            }
            #expect(h.server.counters.renewals == renewalsDuringFault)
            #expect(h.server.counters.rejectedReuse == 0)
            if let change {
                await #expect(throws: (any Error).self, "the \(change) while the store refuses writes") {
                    if change == "sign-out" { try await client.signOut() } else { try await client.signIn(BearerTokenSet(accessToken: "other", refreshToken: "other-refresh")) }
                }
                // Long enough for the renewal to try its write again after the refusal.
                try await Task.sleep(for: .seconds(2))
            }
            try lock.release()

            // The rotated credential lands in the store without another request.
            let vault = CredentialVault(store: try await openStore())
            let deadline = ContinuousClock.now + .seconds(30)
            var stored = try await vault.load(BearerTokenSet.self, for: Self.alice)
            while stored?.refreshToken == signedIn.refreshToken, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(50))
                stored = try await vault.load(BearerTokenSet.self, for: Self.alice)
            }
            #expect(stored?.refreshToken != signedIn.refreshToken)

            // A fresh process with only the store renews without reuse detection.
            h.server.clock.advance(by: 301)
            let fresh = h.container(store: try await openStore()).makeClient(for: Self.alice, strategy: h.bearer())
            #expect(try await fresh.send(.get, h.url("me")).status == .ok)
            #expect(try await client.send(.get, h.url("me")).status == .ok)
            #expect(h.server.counters.renewals == 2)
            #expect(h.server.counters.rejectedReuse == 0)
            #expect(!recorder.all.contains(.excessiveRenewal(Self.alice)))
            #expect(!recorder.all.contains { if case .reauthenticationRequired = $0 { true } else { false } })
        }
    }

    /// Issue 50: the SQLite store's refresh lock is a lease row that lapses when its holder cannot
    /// extend it (here the database file is locked by another connection for twice the lease)
    /// while the holder still waits for a slow token endpoint. Another process may then take the
    /// lock; the renewal lease is what keeps it from presenting the same refresh token: one
    /// renewal at the server, no reuse, both processes served.
    @Test func aLapsedSQLiteLockLetsNobodyPresentTheSameRefreshToken() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("AuthKitLapsedLock-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("credentials.sqlite").path
        let options = SQLiteStoreOptions(busyTimeout: .milliseconds(100), leaseDuration: .milliseconds(300), lockTimeout: .seconds(20))
        try await Harness.run { h in
            let first = try await h.signedInClient("alice", container: h.container(store: try await SQLiteCredentialStore.open(at: path, options: options)))
            let second = h.container(store: try await SQLiteCredentialStore.open(at: path, options: options)).makeClient(for: Self.alice, strategy: h.bearer())
            h.server.clock.advance(by: 301)
            h.server.resetCounters()
            h.server.faults.inject(.delay(.seconds(2)), path: "/auth/refresh")
            let renewal = Task { try await first.send(.get, h.url("me")) }
            try await h.refreshArrived()
            let lock = try SQLiteFileLock(path: path)
            let other = Task { try await second.send(.get, h.url("me")) }
            try await Task.sleep(for: .milliseconds(600))
            try lock.release()
            #expect(try await renewal.value.status == .ok)
            #expect(try await other.value.status == .ok)
            #expect(h.server.counters.renewals == 1)
            #expect(h.server.counters.rejectedReuse == 0)
        }
    }

    @Test func openingAFileStoreDoesNotWaitForAWriteLockHeldElsewhere() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("AuthKitStoreOpen-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try FileCredentialStore(directory: directory)
        let lock = try FileStoreWriteLock(directory: directory.path)
        defer { try? lock.release() }
        let started = ContinuousClock.now
        // Far below the lock's timeout, which waiting for the lock would have reached.
        let store = try FileCredentialStore(directory: directory, options: .init(lockTimeout: .seconds(120)))
        #expect(ContinuousClock.now - started < .seconds(60))
        #expect(try await store.get(Self.alice.item("credential")) == nil)
    }
}
