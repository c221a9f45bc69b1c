import Foundation
import Logging

extension AccountSession {
    /// Renews the credential, inside the store's refresh lock when it has one.
    nonisolated func performRenewal(from stale: Strategy.Value?, now: Date) async throws -> Strategy.Value {
        if let locking = vault.store as? any RefreshLocking {
            do {
                return try await locking.withRefreshLock(for: account) {
                    try await self.renewHoldingLock(from: stale, now: now)
                }
            } catch let error as CredentialStoreError where error.code == .unavailable {
                events.emit(.storeUnavailable(account, reason: error.message))
                throw AuthError(code: .storage, message: "the refresh lock could not be taken: \(error.message)", account: account, underlying: error)
            }
        }
        return try await renewHoldingLock(from: stale, now: now)
    }

    /// Re-reads the store, adopts a credential someone else renewed, or renews and persists.
    private nonisolated func renewHoldingLock(from stale: Strategy.Value?, now: Date) async throws -> Strategy.Value {
        let stored = try? await vault.load(Strategy.Value.self, for: account)
        if let stored, stored != stale, !strategy.needsRenewal(stored, now: now, leeway: policy.leeway) {
            logger.debug("adopted a credential renewed elsewhere", metadata: ["account": "\(account)"])
            return stored
        }
        let base = stored ?? stale
        let context = RenewalContext(account: account, vault: vault, now: now)
        let renewed: Strategy.Value
        do {
            renewed = try await strategy.renew(base, context: context)
        } catch let error as AuthError where error.code == .reauthenticationRequired {
            // Another process may have rotated the credential while the server rejected ours.
            let latest = try? await vault.load(Strategy.Value.self, for: account)
            if let latest, latest != base {
                logger.info("renewal rejected, but the store holds a newer credential; adopting it", metadata: ["account": "\(account)"])
                return latest
            }
            if latest != nil {
                try? await vault.delete(for: account)
            }
            throw error
        }
        await persist(renewed)
        events.emit(.renewed(account))
        return renewed
    }

    /// Persists a renewed credential; a failure is reported and the credential is used anyway.
    private nonisolated func persist(_ renewed: Strategy.Value) async {
        do {
            try await vault.save(renewed, for: account)
        } catch {
            events.emit(.persistFailed(account, reason: String(describing: error)))
            logger.error("the renewed credential could not be persisted; using it anyway", metadata: ["account": "\(account)", "error": "\(error)"])
        }
    }
}
