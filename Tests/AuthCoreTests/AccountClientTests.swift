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

/// Issue 53: "is this account signed in?" is one call, `AccountClient.isSignedIn()`, that tells
/// a signed-out account from a store that cannot be read.
@Suite struct AccountClientTests {
    let strategy = BearerStrategy(allowedHosts: apiHosts) { $0 }

    func container(_ store: any CredentialStore) -> AuthContainer {
        let container = AuthContainer()
        container.override(CredentialStoreKey.self, with: store)
        return container
    }

    @Test func anAccountNeverSignedInIsNotSignedIn() async throws {
        let client = container(InMemoryCredentialStore()).makeClient(for: alice, strategy: strategy)
        #expect(try await client.isSignedIn() == false)
    }

    @Test func signedInFromSignInUntilSignOutWhateverTheExpiry() async throws {
        let client = container(InMemoryCredentialStore()).makeClient(for: alice, strategy: strategy)
        try await client.signIn(BearerTokenSet(accessToken: "token-1", refreshToken: "refresh-1", expiresAt: Date(timeIntervalSince1970: 0)))
        #expect(try await client.isSignedIn())
        try await client.signOut()
        #expect(try await client.isSignedIn() == false)
    }

    @Test func aSignInStoredByAnotherProcessCounts() async throws {
        let store = InMemoryCredentialStore()
        try await container(store).makeClient(for: alice, strategy: strategy).signIn(BearerTokenSet(accessToken: "token-1"))
        // Another container on the same store: a process started after the sign-in.
        let later = container(store).makeClient(for: alice, strategy: strategy)
        #expect(try await later.isSignedIn())
        let bob = container(store).makeClient(for: AccountKey(namespace: alice.namespace, account: "bob"), strategy: strategy)
        #expect(try await bob.isSignedIn() == false)
    }

    @Test func aStoreThatCannotBeReadThrowsAStorageErrorNeverFalse() async throws {
        let store = FaultyStore()
        try await container(store).makeClient(for: alice, strategy: strategy).signIn(BearerTokenSet(accessToken: "token-1"))
        store.fault.withLock { $0 = CredentialStoreError(code: .unavailable, message: "database is locked") }
        let client = container(store).makeClient(for: alice, strategy: strategy)
        await #expect { try await client.isSignedIn() } throws: { ($0 as? AuthError)?.code == .storage }
        store.fault.withLock { $0 = nil }
        #expect(try await client.isSignedIn())
    }

    /// A sign-out runs the container's sign-out steps after removing the credential, before it
    /// returns, each one even when one before it failed; a failing step is thrown once the
    /// account is signed out, and a second sign-out runs the steps again.
    @Test func aSignOutRunsEveryStepAndASecondOneRetriesAFailedStep() async throws {
        let store = InMemoryCredentialStore()
        let container = container(store)
        struct StepFailed: Error {}
        let ran = Mutex<[String]>([])
        let failures = Mutex(1)
        container.addSignOutStep(named: "first") { account in
            ran.withLock { $0.append("first \(account.account)") }
            if failures.withLock({ count in defer { count -= 1 }; return count > 0 }) { throw StepFailed() }
        }
        container.addSignOutStep(named: "second") { account in
            let stored = try await store.get(account.item(CredentialVault.credentialItem))
            ran.withLock { $0.append("second \(account.account) \(stored == nil ? "after" : "before") the removal") }
        }
        let client = container.makeClient(for: alice, strategy: strategy)
        try await client.signIn(BearerTokenSet(accessToken: "token-1"))
        await #expect(throws: StepFailed.self) { try await client.signOut() }
        #expect(ran.withLock { $0 } == ["first alice", "second alice after the removal"])
        #expect(try await client.isSignedIn() == false)
        try await client.signOut()
        #expect(ran.withLock { $0 }.count == 4)
    }
}
