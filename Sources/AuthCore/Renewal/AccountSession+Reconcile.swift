// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Logging
import Synchronization

/// A session catching up with its store after a change made elsewhere.
protocol StoreReconciling: AnyObject, Sendable {
    /// The account the session is for.
    var account: AccountKey { get }
    /// Re-reads the store and adopts what it holds.
    func reconcileWithStore() async
}

extension AccountSession: StoreReconciling {
    /// Keeps the registry's change follower alive for as long as this session is in use.
    nonisolated func keep(_ follower: ChangeFollower) {
        changeFollower.withLock { $0 = follower }
    }

    /// Re-reads the stored credential and makes it the one in memory when it differs: a credential
    /// renewed or signed in elsewhere is adopted; one removed elsewhere is dropped (a `signedOut`
    /// event), so that requests stop sending it.
    ///
    /// Nothing changes when the read fails (an unreachable store is not a sign-out), or when this
    /// process changed the credential while the read ran (its change is newer). While the session
    /// cannot take a change (not loaded yet, renewing, storing a renewed credential) the re-read
    /// waits and runs as soon as it can, so a change that arrives during a renewal is not lost.
    /// Calls made while one runs are folded into one more read after it. A recorded failure
    /// stays when the credential was removed (the removal is what the failure did).
    func reconcileWithStore() async {
        guard !reconciling else {
            reconcileAgain = true
            return
        }
        reconciling = true
        defer { reconciling = false }
        repeat {
            reconcileAgain = false
            await reconcileOnce()
        } while reconcileAgain
    }

    /// Runs a re-read that had to wait, once the session can take it.
    func reconcileIfPending() {
        guard reconcilePending, loaded, inFlight == nil, !persisting, changingLocally == 0 else { return }
        reconcilePending = false
        Task { await self.reconcileWithStore() }
    }

    /// Ends a sign-in or sign-out of this process; a change elsewhere that waited is taken now.
    func endLocalChange() {
        changingLocally -= 1
        reconcileIfPending()
    }

    private func reconcileOnce() async {
        guard loaded, inFlight == nil, !persisting, changingLocally == 0 else {
            reconcilePending = true
            return
        }
        reconcilePending = false
        let revision = self.revision
        let stored: StoredCredential<Strategy.Value>?
        do {
            stored = try await vault.loadRecord(Strategy.Value.self, for: account)
        } catch {
            return  // unreachable or unreadable: keep what is in memory; a request's own read reports it
        }
        guard revision == self.revision else {
            reconcileAgain = true  // this process changed it meanwhile: read once more
            return
        }
        guard inFlight == nil, !persisting, changingLocally == 0 else {
            reconcilePending = true
            return
        }
        guard let stored else {
            if current != nil, failure == nil { dropCredentialRemovedElsewhere() }
            return
        }
        guard stored.credential != current, stored.credential != failedCredential else { return }
        set(stored.credential, obtainedAt: obtained(stored))
        failure = nil
        failedCredential = nil
        logger.info("adopted the credential changed elsewhere", metadata: ["account": "\(account)"])
    }

    private func dropCredentialRemovedElsewhere() {
        supersedeRenewals()
        set(nil, obtainedAt: .distantPast)
        failure = nil
        failedCredential = nil
        events.emit(.signedOut(account))
        logger.info("the credential was removed elsewhere (signed out)", metadata: ["account": "\(account)"])
    }

    /// Reads the stored credential into memory, unless a sign-in, a sign-out or another read
    /// changed it meanwhile.
    func load() async throws {
        let started = generation
        let startedRevision = revision
        do {
            let stored = try await vault.loadRecord(Strategy.Value.self, for: account)
            storeRecovered()
            // A sign-in or sign-out, another load or a re-read after a change set it meanwhile.
            guard started == generation, startedRevision == revision else { return }
            set(stored?.credential, obtainedAt: stored.map(obtained) ?? .distantPast)
        } catch let error as CredentialStoreError {
            throw storageFailure(error, "the credential could not be read")
        }
    }
}
