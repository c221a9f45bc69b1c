import Foundation
import Logging

/// How a renewal's end, or a failure that only a new sign-in ends, changes the session.
extension AccountSession {
    /// After a failure that needs a new sign-in: looks in the store, at most once per
    /// ``RenewalPolicy/failureRecheckInterval``, for a credential signed in elsewhere (another
    /// process sharing the store) and adopts it; otherwise throws the failure again. Requests
    /// that arrive during the look wait for it.
    func recoverFromFailure() async throws {
        guard let recorded = failure else { return }
        let look: Task<Void, Never>
        if let recheck {
            look = recheck
        } else {
            let now = clock.now()
            if let last = lastFailureCheck, now.timeIntervalSince(last) < policy.failureRecheckInterval.seconds { throw recorded }
            lastFailureCheck = now
            look = Task { await self.adoptCredentialSignedInElsewhere() }
            recheck = look
        }
        await look.value
        if let failure { throw failure }
    }

    func adoptCredentialSignedInElsewhere() async {
        defer { recheck = nil }
        let stored = try? await vault.loadRecord(Strategy.Value.self, for: account)
        guard failure != nil, let stored, stored.credential != failedCredential,
              !strategy.needsRenewal(stored.credential, now: serverNow, leeway: .zero) else { return }
        set(stored.credential, obtainedAt: obtained(stored))
        failure = nil
        failedCredential = nil
        renewalTimes.removeAll()
        logger.info("a credential signed in elsewhere replaces the recorded failure", metadata: ["account": "\(account)"])
    }

    /// Publishes a renewal's outcome, unless a sign-in or sign-out happened meanwhile.
    func finishRenewal(_ outcome: RenewalOutcome<Strategy.Value>, flight: RenewalFlight<Strategy.Value>, _ renewal: Renewal) -> Result<Strategy.Value, any Error> {
        // Cleared last, so observers see the outcome, not the old credential in between.
        defer { if inFlight === flight { inFlight = nil } }
        guard renewal.generation == generation else { return superseded() }
        persisting = false
        switch outcome {
        case .renewed(let value, let at):
            set(value, obtainedAt: at)
            events.emit(.renewed(account))
            return .success(value)
        case .adopted(let value, let at):
            if renewal.counted { giveBackReservation() }
            set(value, obtainedAt: at)
            return .success(value)
        }
    }

    /// Uses a renewed credential the store could not take yet, while the renewal retries the write.
    func publishUnpersisted(_ value: Strategy.Value, at: Date, flight: RenewalFlight<Strategy.Value>, _ renewal: Renewal, reason: String) {
        guard renewal.generation == generation else { return }
        // Cleared last, so observers see the outcome, not the old credential in between.
        defer { if inFlight === flight { inFlight = nil } }
        persisting = true
        set(value, obtainedAt: at)
        events.emit(.persistFailed(account, reason: reason))
        logger.error("the renewed credential cannot be stored yet; using it and retrying", metadata: ["account": "\(account)"])
        flight.finish(.success(value))
    }

    /// Whether no sign-in or sign-out happened since `renewal` was planned.
    func isCurrent(_ renewal: Renewal) -> Bool { renewal.generation == generation }

    /// What the waiters of a renewal overtaken by a sign-in or sign-out get: its credential.
    func superseded() -> Result<Strategy.Value, any Error> {
        if let current { return .success(current) }
        return .failure(AuthError(code: .notSignedIn, message: "the account was signed out while its credential was being renewed; sign in first", account: account))
    }

    /// Records a failure that only a new sign-in (here or elsewhere) ends: requests fail fast.
    func record(_ final: AuthError, rejected: Strategy.Value?) {
        failure = final
        failedCredential = rejected
        lastFailureCheck = clock.now()
    }

    /// Records a failed renewal and returns the result every waiter gets.
    func failRenewal(_ error: any Error, flight: RenewalFlight<Strategy.Value>, _ renewal: Renewal) -> Result<Strategy.Value, any Error> {
        // Cleared last, so observers see the outcome, not the old credential in between.
        defer { if inFlight === flight { inFlight = nil } }
        guard renewal.generation == generation else { return superseded() }
        persisting = false
        var error = error
        var rejected = renewal.stale ?? current
        if let rejection = error as? RejectedCredential<Strategy.Value> {
            error = rejection.error
            rejected = rejection.credential
        }
        guard let authError = error as? AuthError else {
            events.emit(.renewalFailed(account, reason: String(describing: error)))
            logger.warning("renewal failed", metadata: ["account": "\(account)", "error": "\(error)"])
            return .failure(error)
        }
        let final = AuthError(code: authError.code, message: authError.message, account: account, status: authError.status, underlying: authError.underlying)
        switch authError.code {
        case .reauthenticationRequired:
            record(final, rejected: rejected)
            events.emit(.reauthenticationRequired(account, reason: authError.message))
            logger.warning("re-authentication required", metadata: ["account": "\(account)"])
        case .misconfigured:
            record(final, rejected: rejected)
            events.emit(.renewalFailed(account, reason: authError.message))
            logger.error("the token endpoint rejected the client configuration", metadata: ["account": "\(account)"])
        case .notSignedIn:
            // Nothing was renewed (signed out, here or elsewhere): give the reservation back, so
            // that asking while signed out never turns into `excessiveRenewal`.
            if renewal.counted { giveBackReservation() }
            set(nil, obtainedAt: .distantPast)
        case .storage:
            // The store failed, not the server: not a renewal (the event was sent where it failed).
            if renewal.counted { giveBackReservation() }
        default:
            events.emit(.renewalFailed(account, reason: authError.message))
            logger.warning("renewal failed", metadata: ["account": "\(account)", "error": "\(authError)"])
        }
        return .failure(final)
    }
}
