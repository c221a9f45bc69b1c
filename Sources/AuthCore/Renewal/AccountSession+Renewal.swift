import Foundation
import Logging

/// A renewal the server refused for good, with the credential it refused (the stored one the
/// renewal started from, which may be newer than the one in memory).
struct RejectedCredential<Value: Sendable>: Error {
    let error: AuthError
    let credential: Value?
}

/// How a renewal ended.
enum RenewalOutcome<Value: Sendable>: Sendable {
    /// The strategy renewed the credential and it was stored; obtained at the given server time.
    case renewed(Value, at: Date)
    /// The store already held a usable credential (renewed or signed in elsewhere).
    case adopted(Value, at: Date)
}

extension AccountSession {
    /// Renews the credential, inside the store's refresh lock when it has one.
    ///
    /// Every store failure becomes `AuthError.storage` (one `storeUnavailable` event per episode);
    /// a wait of more than a second for another process's lock sends `waitingForRefreshLock`.
    nonisolated func performRenewal(_ renewal: Renewal, flight: RenewalFlight<Strategy.Value>) async throws -> RenewalOutcome<Strategy.Value> {
        do {
            guard let locking = vault.store as? any RefreshLocking else {
                return try await renewHoldingLock(renewal, flight: flight)
            }
            let notice = lockWaitNotice()
            defer { notice.cancel() }
            return try await locking.withRefreshLock(for: account) {
                notice.cancel()
                return try await self.renewHoldingLock(renewal, flight: flight)
            }
        } catch let error as CredentialStoreError {
            throw storageFailure(error, "the credential could not be renewed")
        }
    }

    /// A task that reports a wait for the refresh lock once it has lasted a second.
    private nonisolated func lockWaitNotice() -> Task<Void, Never> {
        Task { [events, account] in
            let waited = Duration.seconds(1)
            guard (try? await Task.sleep(for: waited)) != nil else { return }
            events.emit(.waitingForRefreshLock(account, waited: waited))
        }
    }

    /// Re-reads the store, adopts a credential someone else renewed or signed in, or renews and
    /// persists, replacing only the record it renewed from.
    private nonisolated func renewHoldingLock(_ renewal: Renewal, flight: RenewalFlight<Strategy.Value>) async throws -> RenewalOutcome<Strategy.Value> {
        let stored = try await vault.loadRecord(Strategy.Value.self, for: account)
        storeRecovered()
        if let stored, stored.credential != renewal.stale, usable(stored, now: renewal.now) {
            logger.debug("adopted a credential renewed elsewhere", metadata: ["account": "\(account)"])
            return .adopted(stored.credential, at: obtained(stored))
        }
        if stored == nil, renewal.stale != nil {
            throw AuthError(code: .notSignedIn, message: "the account was signed out (its stored credential was removed); sign in first", account: account)
        }
        let base = stored?.credential ?? renewal.stale
        let context = RenewalContext(account: account, vault: vault, now: renewal.now)
        let renewed: Strategy.Value
        do {
            renewed = try await strategy.renew(base, context: context)
        } catch let error as AuthError where error.code == .reauthenticationRequired {
            // Another process may have rotated the credential while the server rejected ours.
            let latest = try? await vault.loadRecord(Strategy.Value.self, for: account)
            if let latest, latest.envelope != stored?.envelope {
                logger.info("renewal rejected, but the store holds a newer credential; adopting it", metadata: ["account": "\(account)"])
                return .adopted(latest.credential, at: obtained(latest))
            }
            if let stored { _ = try? await vault.delete(for: account, ifCurrent: stored.envelope) }
            throw RejectedCredential(error: error, credential: base)
        }
        return try await persist(renewed, replacing: stored, renewal, flight: flight)
    }

    /// Stores a renewed credential in place of `stored`. When the record changed meanwhile (a
    /// sign-in or sign-out, here or in another process) nothing is written and the renewed
    /// credential is dropped. When the store fails in a way that may pass (locked, full,
    /// read-only), the credential is published for use here and the write is retried (the caller
    /// keeps the refresh lock) until it lands, the record changes, or this session signs in or out.
    private nonisolated func persist(_ renewed: Strategy.Value, replacing stored: StoredCredential<Strategy.Value>?, _ renewal: Renewal, flight: RenewalFlight<Strategy.Value>) async throws -> RenewalOutcome<Strategy.Value> {
        let at = serverNow
        var pause = Duration.milliseconds(20)
        var published = false
        while true {
            let written: StoredCredential<Strategy.Value>?
            do {
                written = try await vault.replace(renewed, for: account, ifCurrent: stored?.envelope)
            } catch let error as CredentialStoreError where Self.passes(error) {
                let failure = storageFailure(error, "the renewed credential could not be stored")
                if !published {
                    published = true
                    await publishUnpersisted(renewed, at: at, flight: flight, renewal, reason: error.message)
                }
                guard await isCurrent(renewal) else { throw failure }
                try? await Task.sleep(for: pause)
                pause = min(pause * 2, .seconds(1))
                continue
            }
            if written != nil {
                storeRecovered()
                return .renewed(renewed, at: at)
            }
            // The record changed during the renewal: a sign-in or sign-out, here or elsewhere.
            logger.info("the stored credential changed during the renewal; the renewed one is dropped", metadata: ["account": "\(account)"])
            guard let latest = try await vault.loadRecord(Strategy.Value.self, for: account) else {
                throw AuthError(code: .notSignedIn, message: "the account was signed out while its credential was being renewed; sign in first", account: account)
            }
            return .adopted(latest.credential, at: obtained(latest))
        }
    }

    /// Whether a store failure may pass by itself (locked, busy, full, read-only), so that
    /// writing again later can succeed; a record that cannot be encoded or sealed never will.
    private static func passes(_ error: CredentialStoreError) -> Bool {
        error.code == .unavailable || error.code == .io
    }

    /// Whether a stored credential can be used as it is at `now`.
    private nonisolated func usable(_ stored: StoredCredential<Strategy.Value>, now: Date) -> Bool {
        let leeway = policy.leeway(expiresAt: stored.credential.expiresAt, obtainedAt: obtained(stored))
        return !strategy.needsRenewal(stored.credential, now: now, leeway: leeway)
    }

    /// When a stored credential was obtained, in server time: when its record was written.
    nonisolated func obtained(_ stored: StoredCredential<Strategy.Value>) -> Date {
        stored.updatedAt.addingTimeInterval(clockSkew)
    }
}
