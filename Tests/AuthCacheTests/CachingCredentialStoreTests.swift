// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCache
import AuthCore
import AuthTesting
import Foundation
import Synchronization
import Testing

/// The read-through credential cache: conformance, write-through, other processes' writes.
@Suite struct CachingCredentialStoreTests {
    static let key = CredentialKey(namespace: "api", account: "alice", item: "credential")

    static func envelope(_ text: String) -> Envelope {
        Envelope(kind: "bearer", payload: Data(text.utf8), updatedAt: Date(timeIntervalSince1970: 1_767_225_600))
    }

    @Test func passesTheStoreConformanceSuite() async throws {
        let passed = try await CredentialStoreConformance.run { CachingCredentialStore(InMemoryCredentialStore()) }
        #expect(passed == CredentialStoreConformance.checkNames)
        let plain = try await CredentialStoreConformance.run { CredentialCache.wrap(CountingStore(InMemoryCredentialStore())) }
        #expect(plain == CredentialStoreConformance.checkNames)
    }

    /// A read that runs while a fenced write or an account's removal is under way, and reads
    /// the record before the write lands, must not keep it: it was kept for the cache's lifetime,
    /// so a renewal's superseded record, or a removed one, was served after the write returned.
    @Test(arguments: ["replace", "deleteAccount"])
    func aReadBesideAWriteDoesNotOutliveIt(write: String) async throws {
        let backing = InMemoryCredentialStore()
        try await backing.put(Self.envelope("v1"), for: Self.key)
        let gated = GatedWrites(backing)
        let cache = CachingCredentialStore(gated, lifetime: .seconds(60), clock: ManualClock())
        let v1 = try await backing.get(Self.key)
        let writing = Task {
            if write == "replace" {
                #expect(try await cache.replace(Self.key, ifCurrent: v1, with: Self.envelope("v2")))
            } else {
                try await cache.deleteAccount(Self.key.accountKey)
            }
        }
        await gated.writeArrived()
        #expect(try await cache.get(Self.key)?.payload == Data("v1".utf8))  // the write has not landed
        gated.open()
        try await writing.value
        #expect(try await cache.get(Self.key)?.payload == (write == "replace" ? Data("v2".utf8) : nil))
    }

    /// Review of issue 18: the compare of a fenced write is the backing store's, never a cached
    /// copy that another process's sign-in has already replaced.
    @Test func aFencedWriteComparesWithTheBackingStoreNotTheCache() async throws {
        let clock = ManualClock()
        let backing = InMemoryCredentialStore()
        let processA = CachingCredentialStore(backing, lifetime: .seconds(2), clock: clock)
        let processB = CachingCredentialStore(backing, lifetime: .seconds(2), clock: clock)
        try await processA.put(Self.envelope("v1"), for: Self.key)
        let seenByA = try await processA.get(Self.key)
        try await processB.put(Self.envelope("signed-in-by-b"), for: Self.key)
        #expect(try await processA.get(Self.key) == seenByA)  // still cached
        #expect(try await processA.replace(Self.key, ifCurrent: seenByA, with: nil) == false)
        #expect(try await backing.get(Self.key)?.payload == Data("signed-in-by-b".utf8))
        #expect(try await processA.get(Self.key)?.payload == Data("signed-in-by-b".utf8))
    }

    /// Issue 50: a renewal takes its lease with a fenced write and then reads the credential
    /// again; that read must come from the backing store (another process may have just written
    /// its renewal), not from a copy cached a moment before.
    @Test func aFencedWriteOfAnyItemDropsTheAccountsCachedRecords() async throws {
        let clock = ManualClock()
        let backing = InMemoryCredentialStore()
        let processA = CachingCredentialStore(backing, lifetime: .seconds(2), clock: clock)
        let processB = CachingCredentialStore(backing, lifetime: .seconds(2), clock: clock)
        try await processA.put(Self.envelope("v1"), for: Self.key)
        _ = try await processA.get(Self.key)
        try await processB.put(Self.envelope("renewed-by-b"), for: Self.key)
        #expect(try await processA.get(Self.key)?.payload == Data("v1".utf8))  // still cached
        let lease = Self.key.accountKey.item("renewal-lease")
        #expect(try await processA.replace(lease, ifCurrent: nil, with: Self.envelope("lease")))
        #expect(try await processA.get(Self.key)?.payload == Data("renewed-by-b".utf8))
    }

    @Test func seesAnotherProcessWriteOnceItsLifetimeHasPassed() async throws {
        // Two caches over one backing store stand for two processes sharing a store on disk.
        let clock = ManualClock()
        let backing = InMemoryCredentialStore()
        let processA = CachingCredentialStore(backing, lifetime: .seconds(2), clock: clock)
        let processB = CachingCredentialStore(backing, lifetime: .seconds(2), clock: clock)

        try await processA.put(Self.envelope("v1"), for: Self.key)
        #expect(try await processA.get(Self.key)?.payload == Data("v1".utf8))
        try await processB.put(Self.envelope("v2"), for: Self.key)

        clock.advance(by: 1)
        #expect(try await processA.get(Self.key)?.payload == Data("v1".utf8))
        clock.advance(by: 1)
        #expect(try await processA.get(Self.key)?.payload == Data("v2".utf8))

        try await processB.delete(Self.key)
        #expect(try await processA.get(Self.key) != nil)
        clock.advance(by: 2)
        #expect(try await processA.get(Self.key) == nil)
    }

    @Test func seesItsOwnWritesAtOnce() async throws {
        let clock = ManualClock()
        let store = CachingCredentialStore(InMemoryCredentialStore(), lifetime: .seconds(60), clock: clock)
        #expect(try await store.get(Self.key) == nil)
        try await store.put(Self.envelope("v1"), for: Self.key)
        #expect(try await store.get(Self.key)?.payload == Data("v1".utf8))
        try await store.put(Self.envelope("v2"), for: Self.key)
        #expect(try await store.get(Self.key)?.payload == Data("v2".utf8))
        try await store.deleteAccount(Self.key.accountKey)
        #expect(try await store.get(Self.key) == nil)
        try await store.put(Self.envelope("v3"), for: Self.key)
        try await store.deleteAll()
        #expect(try await store.get(Self.key) == nil)
    }

    @Test func repeatedReadsWithinTheLifetimeCostOneStoreRead() async throws {
        let clock = ManualClock()
        let inner = CountingStore(InMemoryCredentialStore())
        try await inner.put(Self.envelope("v1"), for: Self.key)
        let store = CachingCredentialStore(inner, lifetime: .seconds(2), clock: clock)
        for _ in 0..<10 { _ = try await store.get(Self.key) }
        #expect(inner.gets == 1)
        clock.advance(by: 2)
        _ = try await store.get(Self.key)
        #expect(inner.gets == 2)
    }

    @Test func preloadReadsAnAccountsRecordsAhead() async throws {
        let inner = CountingStore(InMemoryCredentialStore())
        let alice = AccountKey(namespace: "api", account: "alice")
        for item in ["credential", "device-id", "otp"] { try await inner.put(Self.envelope(item), for: alice.item(item)) }
        try await inner.put(Self.envelope("bob"), for: CredentialKey(namespace: "api", account: "bob", item: "credential"))
        let store = CachingCredentialStore(inner, clock: ManualClock())

        #expect(try await store.preload(account: alice) == 3)
        let afterPreload = inner.gets
        #expect(try await store.get(alice.item("device-id"))?.payload == Data("device-id".utf8))
        #expect(inner.gets == afterPreload)
        #expect(try await store.preload(namespace: "api") == 4)
    }

    @Test func theRefreshLockIsForwardedAndRereadsTheStore() async throws {
        let clock = ManualClock()
        let backing = InMemoryCredentialStore()
        let processA = CachingCredentialStore(backing, lifetime: .seconds(60), clock: clock)
        let processB = CachingCredentialStore(backing, lifetime: .seconds(60), clock: clock)
        try await processA.put(Self.envelope("old"), for: Self.key)
        try await processB.put(Self.envelope("renewed by B"), for: Self.key)

        let seen = try await processA.withRefreshLock(for: Self.key.accountKey) { try await processA.get(Self.key) }
        #expect(seen?.payload == Data("renewed by B".utf8))
        #expect((CredentialCache.wrap(backing) as any CredentialStore) is any RefreshLocking)
        #expect(!((CredentialCache.wrap(CountingStore(backing)) as any CredentialStore) is any RefreshLocking))
    }

    @Test func concurrentWritesAndReadsEndWithTheStoredValue() async throws {
        let backing = InMemoryCredentialStore()
        let store = CachingCredentialStore(backing, lifetime: .seconds(60), clock: ManualClock())
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<50 {
                group.addTask { try await store.put(Self.envelope("v\(index)"), for: Self.key) }
                group.addTask { _ = try await store.get(Self.key) }
            }
            try await group.waitForAll()
        }
        #expect(try await store.get(Self.key) == (try await backing.get(Self.key)))
    }

    @Test func theContainerRegistrationWrapsTheConfiguredStore() async throws {
        let container = AuthContainer()
        let backing = InMemoryCredentialStore()
        container.override(CredentialStoreKey.self, with: backing)
        let cache = container.useCredentialCache(lifetime: .seconds(5))
        #expect(container[CredentialStoreKey.self] is any CredentialCaching)
        try await cache.put(Self.envelope("v"), for: Self.key)
        #expect(try await backing.get(Self.key)?.payload == Data("v".utf8))
    }
}

/// A store whose writes wait until the test opens it, once it has seen one arrive.
final class GatedWrites: CredentialStore {
    let inner: InMemoryCredentialStore
    private let arrived: AsyncStream<Void>
    private let arrival: AsyncStream<Void>.Continuation
    private let gate: AsyncStream<Void>
    private let opening: AsyncStream<Void>.Continuation

    init(_ inner: InMemoryCredentialStore) {
        self.inner = inner
        (arrived, arrival) = AsyncStream.makeStream()
        (gate, opening) = AsyncStream.makeStream()
    }

    /// Returns once a write is waiting at the gate.
    func writeArrived() async { for await _ in arrived { return } }
    /// Lets every write through.
    func open() { opening.finish() }
    private func pass() async {
        arrival.yield()
        for await _ in gate {}
    }

    func get(_ key: CredentialKey) async throws -> Envelope? { try await inner.get(key) }
    func put(_ envelope: Envelope, for key: CredentialKey) async throws { await pass(); try await inner.put(envelope, for: key) }
    func delete(_ key: CredentialKey) async throws { await pass(); try await inner.delete(key) }
    func items(of account: AccountKey) async throws -> [String] { try await inner.items(of: account) }
    func accounts(in namespace: String) async throws -> [String] { try await inner.accounts(in: namespace) }
    func namespaces() async throws -> [String] { try await inner.namespaces() }
    func deleteAccount(_ account: AccountKey) async throws { await pass(); try await inner.deleteAccount(account) }
    func deleteAll() async throws { await pass(); try await inner.deleteAll() }
    func replace(_ key: CredentialKey, ifCurrent expected: Envelope?, with envelope: Envelope?) async throws -> Bool {
        await pass()
        return try await inner.replace(key, ifCurrent: expected, with: envelope)
    }
}

/// A store that counts reads of the store it wraps and has no refresh lock.
final class CountingStore: CredentialStore {
    let inner: InMemoryCredentialStore
    private let reads = Mutex(0)
    init(_ inner: InMemoryCredentialStore) { self.inner = inner }
    var gets: Int { reads.withLock { $0 } }

    func get(_ key: CredentialKey) async throws -> Envelope? {
        reads.withLock { $0 += 1 }
        return try await inner.get(key)
    }
    func put(_ envelope: Envelope, for key: CredentialKey) async throws { try await inner.put(envelope, for: key) }
    func delete(_ key: CredentialKey) async throws { try await inner.delete(key) }
    func items(of account: AccountKey) async throws -> [String] { try await inner.items(of: account) }
    func accounts(in namespace: String) async throws -> [String] { try await inner.accounts(in: namespace) }
    func namespaces() async throws -> [String] { try await inner.namespaces() }
    func deleteAccount(_ account: AccountKey) async throws { try await inner.deleteAccount(account) }
    func deleteAll() async throws { try await inner.deleteAll() }
    /// The inner store's atomic compare-and-write: without it the protocol's read-compare-write
    /// default lets two concurrent replaces of one record both win, which the conformance suite
    /// rightly reports (it failed once in CI).
    func replace(_ key: CredentialKey, ifCurrent expected: Envelope?, with envelope: Envelope?) async throws -> Bool {
        try await inner.replace(key, ifCurrent: expected, with: envelope)
    }
}
