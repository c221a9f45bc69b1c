// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

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

// MARK: - Planning: use, wait or lead

extension AccountSession {
    /// A credential newer than `stale`: the current one if it already differs, else a renewed one.
    /// Concurrent callers share one renewal.
    ///
    /// Meant for a credential the server rejected: the renewal counts against the budget.
    public nonisolated func renew(from stale: Strategy.Value?) async throws -> Strategy.Value {
        try await resolve(planRenewal(from: stale, forcedByRejection: true))
    }

    /// A credential to use now, the renewal to wait for, or a renewal this caller starts.
    ///
    /// The actor only decides; callers start and wait for a renewal outside it
    /// (``resolve(_:)``), so when a renewal finishes, its many waiters resume in parallel
    /// instead of one by one on the actor.
    enum Plan: Sendable {
        case use(Strategy.Value)
        case wait(RenewalFlight<Strategy.Value>)
        /// The flight is registered as in flight; the caller starts it.
        case lead(RenewalFlight<Strategy.Value>, Renewal)
    }

    /// What a renewal starts from.
    struct Renewal: Sendable {
        /// The credential in memory that is due or was rejected (nil when none is loaded).
        let stale: Strategy.Value?
        /// Server time when it was planned.
        let now: Date
        /// The session's generation when it was planned.
        let generation: UInt64
        /// Whether it took a place in the renewal budget.
        let counted: Bool
    }

    nonisolated func resolve(_ plan: Plan) async throws -> Strategy.Value {
        switch plan {
        case .use(let credential):
            return credential
        case .wait(let flight):
            return try await flight.value
        case .lead(let flight, let renewal):
            start(flight, renewal)
            return try await flight.value
        }
    }

    /// Runs a renewal in a task of its own, so that no waiter's cancellation cancels it.
    ///
    /// The task starts at once on the caller's thread (`Task.immediate`) and runs until it
    /// first suspends, and it runs at high priority: every request of the account waits for it,
    /// so it must not wait behind them. Under a burst, the other requests of the burst are
    /// queued behind this caller, and each step of the renewal that suspends (a store read, the
    /// renewal lease, the refresher's request) resumes through the same queue; at the requests'
    /// priority, each step waited for the whole burst to reach its wait first (the renewal's
    /// request went out about 6 ms after a burst of 1,000 began, on one thread; see the Pipeline
    /// benchmark's renewal storms).
    private nonisolated func start(_ flight: RenewalFlight<Strategy.Value>, _ renewal: Renewal) {
        let operation: @Sendable () async -> Void = { await self.fly(flight, renewal) }
        if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
            Task.immediate(priority: .high, operation: operation)
        } else {
            Task(priority: .high, operation: operation)
        }
    }

    /// Renews, records the outcome on the actor, then lets the waiters go: a request that
    /// arrives in between already finds the renewed credential (or the failure) published.
    private nonisolated func fly(_ flight: RenewalFlight<Strategy.Value>, _ renewal: Renewal) async {
        let result: Result<Strategy.Value, any Error>
        do {
            let outcome = try await performRenewal(renewal, flight: flight)
            result = await finishRenewal(outcome, flight: flight, renewal)
        } catch {
            result = await failRenewal(error, flight: flight, renewal)
        }
        flight.finish(result)
    }

    func planCredential() async throws -> Plan {
        if failure != nil { try await recoverFromFailure() }
        if let inFlight { return .wait(inFlight) }
        if !loaded { try await load() }
        guard let credential = current else { return try await planRenewal(from: nil, forcedByRejection: false) }
        if isDue(credential) {
            return try await planRenewal(from: credential, forcedByRejection: false)
        }
        return .use(credential)
    }

    func planRenewal(from stale: Strategy.Value?, forcedByRejection: Bool) async throws -> Plan {
        if failure != nil { try await recoverFromFailure() }
        if let inFlight { return .wait(inFlight) }
        if let current, current != stale, !isDue(current) {
            return .use(current)
        }
        if persisting {
            throw AuthError(code: .storage, message: "the credential renewed last cannot be stored yet; renewing again waits until the store takes it", account: account)
        }
        let now = serverNow
        let counted = stale == nil || stale != current
            || policy.renewalCounts(expiresAt: current?.expiresAt, obtainedAt: obtainedAt, now: now, forcedByRejection: forcedByRejection, uncertainty: clockUncertainty)
        // Refused in the race at its expiry: the server's clock had passed it.
        if forcedByRejection, !counted, let expiresAt = current?.expiresAt { noteServerPassed(expiresAt, at: now) }
        if counted { try reserveRenewal() }
        let flight = RenewalFlight<Strategy.Value>()
        inFlight = flight
        return .lead(flight, Renewal(stale: stale, now: now, generation: generation, counted: counted))
    }

    /// Whether `credential` is due for renewal now, by the server's clock as the client sees it.
    func isDue(_ credential: Strategy.Value) -> Bool {
        let leeway = credential == current ? policy.leeway(expiresAt: credential.expiresAt, obtainedAt: obtainedAt) : policy.leeway
        return strategy.needsRenewal(credential, now: serverNow, leeway: leeway)
    }

    func giveBackReservation() {
        if !renewalTimes.isEmpty { renewalTimes.removeLast() }
    }

    func reserveRenewal() throws {
        let now = clock.now()
        renewalTimes.removeAll { now.timeIntervalSince($0) >= policy.window.seconds }
        guard renewalTimes.count < policy.maxRenewals else {
            let message = excessiveRenewalMessage()
            events.emit(.excessiveRenewal(account))
            logger.error("excessive renewal", metadata: ["account": "\(account)", "limit": "\(policy.maxRenewals)", "reason": "\(message)"])
            throw AuthError(code: .excessiveRenewal, message: message, account: account)
        }
        renewalTimes.append(now)
    }

    /// Why the budget is spent, and what to change: the policy, when the server's credentials
    /// live too briefly for it, or the server, when it refuses what it has just issued.
    func excessiveRenewalMessage() -> String {
        let budget = "more than \(policy.maxRenewals) renewals within \(policy.window) (RenewalPolicy maxRenewals, window)"
        let lifetime = current?.expiresAt.map { $0.timeIntervalSince(obtainedAt) }
        guard let lifetime, lifetime.isFinite, lifetime > 0 else {
            return "\(budget): the server keeps refusing renewed credentials; check that it accepts the credentials it issues (audience, scope, its clock)"
        }
        let age = serverNow.timeIntervalSince(obtainedAt)
        let needed = Int((policy.window.seconds / lifetime).rounded(.up)) + 1
        return "\(budget): the current credential lives \(Self.seconds(lifetime)) and was \(Self.seconds(age)) old. "
            + "If the server's credentials live this briefly, allow at least \(needed) renewals per \(policy.window); "
            + "if not, the server refuses credentials it has just issued: check their audience and scope, and its clock"
    }

    private static func seconds(_ value: TimeInterval) -> String {
        String(format: "%.1f s", value)
    }
}

// MARK: - Renewing, inside the refresh lock when the store has one

extension AccountSession {
    /// Renews the credential, inside the store's refresh lock when it has one.
    ///
    /// Every store failure becomes `AuthError.storage` (one `storeUnavailable` event per episode);
    /// a wait of more than a second for another process's lock sends `waitingForRefreshLock`.
    nonisolated func performRenewal(_ renewal: Renewal, flight: RenewalFlight<Strategy.Value>) async throws -> RenewalOutcome<Strategy.Value> {
        do {
            guard let locking = vault.refreshLocking else {
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

    /// Re-reads the store and adopts a credential someone else renewed or signed in; otherwise
    /// takes the account's renewal lease and renews (the rules are ``RenewalLease``'s). Waiting
    /// for another process's lease is bounded by ``RenewalPolicy/leaseTerm`` (a holder gone
    /// silent is taken over) and by six terms in all (then the store is reported unavailable).
    private nonisolated func renewHoldingLock(_ renewal: Renewal, flight: RenewalFlight<Strategy.Value>) async throws -> RenewalOutcome<Strategy.Value> {
        let clock = ContinuousClock()
        let started = clock.now
        var watch = LeaseWatch()
        var pause = Duration.milliseconds(20)
        while true {
            let stored = try await vault.loadRecord(Strategy.Value.self, for: account)
            storeRecovered()
            if let stored, stored.credential != renewal.stale, usable(stored, now: renewal.now) {
                logger.debug("adopted a credential renewed elsewhere", metadata: ["account": "\(account)"])
                return .adopted(stored.credential, at: obtained(stored))
            }
            if stored == nil, renewal.stale != nil {
                throw AuthError(code: .notSignedIn, message: "the account was signed out (its stored credential was removed); sign in first", account: account)
            }
            let from = RenewalLease.fingerprint(of: stored?.envelope)
            let found = try await vault.renewalLease(for: account)
            switch watch.decide(found.lease, envelope: found.envelope, from: from, session: sessionID, term: policy.leaseTerm, now: clock.now) {
            case .refused:
                let refusal = AuthError(code: .reauthenticationRequired, message: "the server refused the renewal of the stored credential (in another process); sign in again", account: account)
                throw RejectedCredential(error: refusal, credential: stored?.credential ?? renewal.stale)
            case .wait:
                guard clock.now - started < policy.leaseWaitLimit else {
                    throw CredentialStoreError.unavailable("another process has been renewing the credential of \(account) for longer than \(policy.leaseWaitLimit)")
                }
                try await Task.sleep(for: pause)
                pause = min(pause * 2, policy.leaseBeat)
            case .take(let previous, let grace):
                let lease = RenewalLease(session: sessionID, holder: UUID().uuidString, from: from, beat: 0, state: .renewing)
                guard let held = try await vault.replaceLease(for: account, ifCurrent: previous, with: lease) else { continue }
                // Taken over from a silent holder: one that was only cut off from the store
                // writes its result within a beat of the store taking writes again.
                if grace { try await Task.sleep(for: policy.leaseBeat * 2) }
                // Read again under the lease: a renewal that ended just before has written its result.
                guard try await vault.loadRecord(Strategy.Value.self, for: account)?.envelope == stored?.envelope else {
                    _ = try? await vault.replaceLease(for: account, ifCurrent: held, with: nil)
                    continue
                }
                return try await renew(from: stored, lease: lease, held: held, renewal, flight: flight)
            }
        }
    }

    /// Presents the credential while holding the renewal lease (beating it), persists the result,
    /// then releases the lease. A refusal by the server leaves the lease `refused` when the record
    /// is unchanged; it never deletes the record.
    private nonisolated func renew(from stored: StoredCredential<Strategy.Value>?, lease: RenewalLease, held: Envelope, _ renewal: Renewal, flight: RenewalFlight<Strategy.Value>) async throws -> RenewalOutcome<Strategy.Value> {
        let beating = beat(lease, held: held)
        let base = stored?.credential ?? renewal.stale
        let context = RenewalContext(account: account, vault: vault, now: renewal.now)
        let renewed: Strategy.Value
        do {
            // A refresher reading a token response places its sending on the server's clock.
            renewed = try await TokenResponse.$serverClockOffset.withValue(clockSkew) {
                try await strategy.renew(base, context: context)
            }
        } catch let refusal as AuthError where refusal.code == .reauthenticationRequired {
            let held = await stop(beating)
            // Another process may have rotated the credential while the server refused ours.
            let latest: StoredCredential<Strategy.Value>?
            do {
                latest = try await vault.loadRecord(Strategy.Value.self, for: account)
            } catch {
                throw RejectedCredential(error: refusal, credential: base)  // not known: nothing is marked
            }
            if let latest, latest.envelope != stored?.envelope {
                await release(held)
                logger.info("renewal rejected, but the store holds a newer credential; adopting it", metadata: ["account": "\(account)"])
                return .adopted(latest.credential, at: obtained(latest))
            }
            if latest != nil, let held {
                var refused = lease
                refused.state = .refused
                _ = try? await vault.replaceLease(for: account, ifCurrent: held, with: refused)
            }
            throw RejectedCredential(error: refusal, credential: base)
        } catch {
            await release(await stop(beating))
            throw error
        }
        do {
            let outcome = try await persist(renewed, replacing: stored, renewal, flight: flight)
            await release(await stop(beating))
            return outcome
        } catch {
            await release(await stop(beating))
            throw error
        }
    }

    /// Rewrites the lease every ``RenewalPolicy/leaseBeat`` until cancelled; the task's value is
    /// the lease record last written, nil when another process took the lease over.
    private nonisolated func beat(_ lease: RenewalLease, held: Envelope) -> Task<Envelope?, Never> {
        Task { [vault, account, policy] in
            var lease = lease
            var held = held
            while (try? await Task.sleep(for: policy.leaseBeat)) != nil {
                lease.beat &+= 1
                do {
                    if let next = try await vault.replaceLease(for: account, ifCurrent: held, with: lease) {
                        held = next
                        continue
                    }
                    // Changed: by a beat that failed but was written after all, or by a takeover.
                    let found = try await vault.renewalLease(for: account)
                    guard let current = found.lease, current.holder == lease.holder, let envelope = found.envelope else { return nil }
                    (lease, held) = (current, envelope)
                } catch {
                    continue  // the store failed: again at the next beat
                }
            }
            return held
        }
    }

    /// Stops beating; the lease record last written, nil when it was taken over.
    private nonisolated func stop(_ beating: Task<Envelope?, Never>) async -> Envelope? {
        beating.cancel()
        return await beating.value
    }

    /// Removes the lease if it is still the one written last (a failure leaves it: rule 2 of
    /// ``RenewalLease`` makes it harmless once the record changed).
    private nonisolated func release(_ held: Envelope?) async {
        guard let held else { return }
        _ = try? await vault.replaceLease(for: account, ifCurrent: held, with: nil)
    }

    /// Stores a renewed credential in place of `stored`. When the record changed meanwhile (a
    /// sign-in or sign-out, here or in another process) nothing is written and the renewed
    /// credential is dropped. When the store fails in a way that may pass (locked, full,
    /// read-only), the credential is published for use here and the write is retried every
    /// ``RenewalPolicy/leaseBeat`` (the caller keeps beating its lease, so no other process
    /// presents the superseded refresh token) until it lands, the record changes, or this session
    /// signs in or out.
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
                pause = min(pause * 2, policy.leaseBeat)
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

    /// Whether a store failure may pass by itself (unreachable, locked, busy, full, read-only),
    /// so that writing again later can succeed; a record that cannot be encoded or sealed, or a
    /// store that is misconfigured, never will.
    private static func passes(_ error: CredentialStoreError) -> Bool {
        error.code == .unavailable || error.code == .readOnly || error.code == .io
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

// MARK: - Outcome

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
        // Whatever its expiry: a credential due for renewal is renewed with its own refresh token
        // (if that fails too, it is the new failed credential, not adopted again).
        guard failure != nil, let stored, stored.credential != failedCredential else { return }
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
            noticeRenewalEnd(of: value, now: at)
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
        let final = AuthError(code: authError.code, message: authError.message, account: account, status: authError.status, responseBody: authError.responseBody, underlying: authError.underlying, retryAfter: authError.retryAfter)
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
