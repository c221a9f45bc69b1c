// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import AuthCore
import AuthTesting
import Foundation
import Synchronization
import Testing

/// Issue 18 items 9 and 10: a store that fails (disk full, read-only, locked) during a renewal.
/// Store faults here are injected around a real in-memory store; the same cases over SQLite and
/// file stores with real locks are in `IntegrationTests/StoreFaultRenewalTests`.
@Suite struct RenewalStoreFaultTests {
    @Test func aStoreFailureIsAStorageErrorReportedOnceNeverARenewalAndRecoversAtOnce() async throws {
        let clock = ManualClock()
        let events = AuthEvents()
        let recorder = EventRecorder(events)
        let store = FaultyStore()
        let refresher = CountingRefresher()
        let session = makeSession(store: store, clock: clock, events: events) { try await refresher.refresh($0, expiresIn: 3600, now: clock.now()) }
        try await session.signIn(BearerTokenSet(accessToken: "token-0", refreshToken: "refresh-0", expiresAt: clock.now().addingTimeInterval(-1)))
        store.fault.withLock { $0 = CredentialStoreError(code: .io, message: "No space left on device") }
        for _ in 0..<20 {
            await #expect { try await session.credentialForRequest() } throws: { ($0 as? AuthError)?.code == .storage }
        }
        #expect(refresher.count == 0)
        store.fault.withLock { $0 = nil }
        #expect(try await session.credentialForRequest().accessToken.reveal == "token-1")
        let seen = await recorder.waitFor { $0.contains(.renewed(alice)) }
        #expect(seen.filter { if case .storeUnavailable = $0 { true } else { false } }.count == 1)
        #expect(!seen.contains(.excessiveRenewal(alice)))
        #expect(!seen.contains { if case .renewalFailed = $0 { true } else { false } })
    }

    @Test func aRenewedCredentialTheStoreRefusedReachesItWhenItRecovers() async throws {
        let clock = ManualClock()
        let events = AuthEvents()
        let recorder = EventRecorder(events)
        let store = FaultyStore()
        let vault = CredentialVault(store: store.inner, clock: clock)
        let refresher = CountingRefresher()
        // The store stops taking writes once the token endpoint has answered (mid-renewal).
        let session = makeSession(store: store, clock: clock, events: events) {
            let renewed = try await refresher.refresh($0, expiresIn: 3600, now: clock.now())
            store.failWrites.withLock { $0 = true }
            return renewed
        }
        try await session.signIn(BearerTokenSet(accessToken: "token-0", refreshToken: "refresh-0", expiresAt: clock.now().addingTimeInterval(-1)))
        // The rotated credential is used at once…
        #expect(try await session.credentialForRequest().accessToken.reveal == "token-1")
        _ = await recorder.waitFor { $0.contains { if case .persistFailed = $0 { true } else { false } } }
        #expect(try await vault.load(BearerTokenSet.self, for: alice)?.refreshToken?.reveal == "refresh-0")
        // …and no one renews again from the superseded refresh token meanwhile.
        await #expect { try await session.renew(from: session.credentialForRequest()) } throws: { ($0 as? AuthError)?.code == .storage }
        #expect(refresher.count == 1)
        // When the store takes writes again, the rotated credential lands without a new request.
        store.failWrites.withLock { $0 = false }
        let deadline = ContinuousClock.now + .seconds(30)
        while try await vault.load(BearerTokenSet.self, for: alice)?.refreshToken?.reveal != "refresh-1", ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(try await vault.load(BearerTokenSet.self, for: alice)?.refreshToken?.reveal == "refresh-1")
        #expect(refresher.count == 1)
    }

    /// A store that takes no writes before a renewal starts: no refresh token is presented (the
    /// renewal lease cannot be written, and without it another process could present the same
    /// token); requests get a typed storage error, nobody is signed out, and the renewal goes
    /// ahead once the store takes writes again.
    @Test func aStoreThatTakesNoWritesIsNotRenewedFromUntilItDoes() async throws {
        let clock = ManualClock()
        let events = AuthEvents()
        let recorder = EventRecorder(events)
        let store = FaultyStore()
        let refresher = CountingRefresher()
        let session = makeSession(store: store, clock: clock, events: events) { try await refresher.refresh($0, expiresIn: 3600, now: clock.now()) }
        try await session.signIn(BearerTokenSet(accessToken: "token-0", refreshToken: "refresh-0", expiresAt: clock.now().addingTimeInterval(-1)))
        store.failWrites.withLock { $0 = true }
        for _ in 0..<5 {
            await #expect { try await session.credentialForRequest() } throws: { ($0 as? AuthError)?.code == .storage }
        }
        #expect(refresher.count == 0)
        #expect(try await CredentialVault(store: store.inner).load(BearerTokenSet.self, for: alice)?.refreshToken?.reveal == "refresh-0")
        store.failWrites.withLock { $0 = false }
        #expect(try await session.credentialForRequest().accessToken.reveal == "token-1")
        #expect(refresher.count == 1)
        #expect(!recorder.all.contains(.signedOut(alice)))
        #expect(!recorder.all.contains { if case .reauthenticationRequired = $0 { true } else { false } })
    }

    @Test func aLongWaitForAnotherRenewalsLockIsReported() async throws {
        let clock = ManualClock()
        let events = AuthEvents()
        let recorder = EventRecorder(events)
        let store = InMemoryCredentialStore()
        let refresher = CountingRefresher()
        let session = makeSession(store: store, clock: clock, events: events) { try await refresher.refresh($0, expiresIn: 3600, now: clock.now()) }
        try await session.signIn(BearerTokenSet(accessToken: "token-0", refreshToken: "refresh-0", expiresAt: clock.now().addingTimeInterval(-1)))
        let waited: @Sendable (AuthEvent) -> Bool = { if case .waitingForRefreshLock(alice, _) = $0 { true } else { false } }
        let held = AsyncGate()
        // Another renewal holds the lock until the waiting one has said it waits (60 s at most).
        let holder = Task {
            try await store.withRefreshLock(for: alice) {
                held.open()
                return await recorder.waitFor(timeout: .seconds(60)) { $0.contains(where: waited) }.contains(where: waited)
            }
        }
        await held.wait()
        #expect(try await session.credentialForRequest().accessToken.reveal == "token-1")
        #expect(try await holder.value)
    }
}

/// A real in-memory store with a switchable fault, counting its reads: every operation fails
/// with `fault` while it is set, and writes fail as a full disk while `failWrites` is on.
final class FaultyStore: CredentialStore, RefreshLocking {
    let inner = InMemoryCredentialStore()
    let fault = Mutex<CredentialStoreError?>(nil)
    let failWrites = Mutex(false)
    private let reads = Atomic<Int>(0)
    /// How many records were read.
    var gets: Int { reads.load(ordering: .relaxed) }
    private func check(writing: Bool = false) throws {
        if let fault = fault.withLock({ $0 }) { throw fault }
        if writing, failWrites.withLock({ $0 }) { throw CredentialStoreError(code: .io, message: "No space left on device") }
    }
    func get(_ key: CredentialKey) async throws -> Envelope? {
        try check()
        reads.add(1, ordering: .relaxed)
        return try await inner.get(key)
    }
    func put(_ envelope: Envelope, for key: CredentialKey) async throws { try check(writing: true); try await inner.put(envelope, for: key) }
    func delete(_ key: CredentialKey) async throws { try check(writing: true); try await inner.delete(key) }
    func replace(_ key: CredentialKey, ifCurrent expected: Envelope?, with envelope: Envelope?) async throws -> Bool {
        try check(writing: true)
        return try await inner.replace(key, ifCurrent: expected, with: envelope)
    }
    func items(of account: AccountKey) async throws -> [String] { try check(); return try await inner.items(of: account) }
    func accounts(in namespace: String) async throws -> [String] { try check(); return try await inner.accounts(in: namespace) }
    func namespaces() async throws -> [String] { try check(); return try await inner.namespaces() }
    func deleteAccount(_ account: AccountKey) async throws { try check(writing: true); try await inner.deleteAccount(account) }
    func deleteAll() async throws { try check(writing: true); try await inner.deleteAll() }
    func withRefreshLock<T: Sendable>(for account: AccountKey, _ body: @Sendable () async throws -> T) async throws -> T {
        try check()
        return try await inner.withRefreshLock(for: account, body)
    }
}
