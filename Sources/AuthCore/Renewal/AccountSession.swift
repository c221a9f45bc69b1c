// This source file is part of the AuthKit open source project
//
// Copyright (c) 2026 the AuthKit project authors
// Licensed under Apache License v2.0 (see LICENSE)
//
// SPDX-License-Identifier: Apache-2.0

public import Foundation
public import Logging
import Synchronization

/// The credential state of one account in this process: the current credential, the one
/// renewal in flight, the renewal budget and a failure that needs a new sign-in.
///
/// Every client of the account shares one session (``SessionRegistry`` hands them out), so
/// many concurrent requests that find the credential expired or rejected wait for one renewal.
/// With a store that has ``RefreshLocking``, renewal also excludes other processes and first
/// re-reads the store, adopting a credential another process already renewed.
///
/// ## Fencing
/// A renewal replaces the stored record it renewed from, and only that record
/// (``CredentialVault/replace(_:for:ifCurrent:)``). A sign-in or sign-out changes the record and
/// bumps the session's generation; a renewal that finishes after one, in this process or another
/// sharing the store, neither saves nor publishes its result: the sign-out or sign-in stands.
///
/// ## Persisted before use, across processes
/// A refresh token is presented only by the holder of the account's renewal lease, a record in
/// the store beside the credential (`RenewalLease` states the rules), after it has read the
/// store again; the credential it gets back is written before the lease is released. A store's
/// refresh lock only spares the other processes polling: safety does not depend on it, so a lock
/// that goes away mid-renewal (a database restart) does not let a second process present the
/// same refresh token. When the store cannot take the renewed credential (unreachable,
/// read-only), it is used in this process at once and the write is retried while the lease is
/// kept alive. A refresh the server refuses is marked in the lease, never by deleting the
/// record: only a sign-out does that.
public actor AccountSession<Strategy: AuthStrategy> {
    /// The account.
    public nonisolated let account: AccountKey
    /// The policy for this account's credential.
    public nonisolated let strategy: Strategy
    /// The vault the credential is read from and persisted to.
    public nonisolated let vault: CredentialVault
    /// The renewal limits.
    public nonisolated let policy: RenewalPolicy
    /// The local clock.
    public nonisolated let clock: any AuthClock
    /// Where events go.
    public nonisolated let events: AuthEvents
    nonisolated let logger: Logger
    /// What plug-ins remove when the account signs out.
    nonisolated let signOutSteps: SignOutSteps
    /// Names this session in the renewal leases it takes (``RenewalLease``).
    nonisolated let sessionID = UUID().uuidString

    var current: Strategy.Value? {
        didSet {
            revision &+= 1
            publish()
        }
    }
    /// Bumped whenever ``current`` changes: a store read that started before a change is older.
    var revision: UInt64 = 0
    /// A re-read of the store after a change elsewhere is running; another was asked for meanwhile.
    var reconciling = false
    var reconcileAgain = false
    /// A change elsewhere arrived while the session could not take it (not loaded yet, renewing,
    /// storing a renewed credential): the store is re-read as soon as it can.
    var reconcilePending = false
    /// A sign-in or sign-out of this process is running: a change elsewhere waits for it.
    var changingLocally = 0
    /// When ``current`` was obtained, in server time: its lifetime bounds the leeway.
    var obtainedAt = Date.distantPast
    var loaded = false { didSet { publish() } }
    var inFlight: RenewalFlight<Strategy.Value>? { didSet { publish() } }
    var renewalTimes: [Date] = []
    var failure: AuthError? { didSet { publish() } }
    /// The credential whose renewal failed for good, and when the store was last looked at for
    /// a newer one.
    var failedCredential: Strategy.Value?
    var lastFailureCheck: Date?
    var recheck: Task<Void, Never>?
    /// Bumped by every sign-in and sign-out; a renewal started under an older one is discarded.
    var generation: UInt64 = 0
    /// A renewed credential is in use but not yet stored: no further renewal until it is.
    var persisting = false { didSet { reconcileIfPending() } }

    /// What requests read and write without entering the actor (see ``SharedState``).
    nonisolated let shared = Mutex(SharedState())
    /// The ``revision`` of the last published credential a server took (``noteAccepted(_:)``),
    /// written by requests.
    nonisolated let acceptedRevision = Atomic<UInt64>(.max)
    /// The second of the session's clock in which a response's `Date` was last read
    /// (``takesServerDate(sentAt:)``), written by requests; `Int64.min` before the first.
    nonisolated let lastDateSecond = Atomic<Int64>(.min)
    /// The last `Date` field value read (``observeServerDateField(_:sentAt:)``), written by
    /// requests.
    nonisolated let lastDateField = Mutex<String?>(nil)
    /// Who follows ``states()``, and what they were last told.
    nonisolated let stateObservers = Mutex(StateObservers())
    /// The change follower of the registry that made this session, if its store has a feed.
    nonisolated let changeFollower = Mutex<ChangeFollower?>(nil)

    /// The part of the session that requests use without entering the actor, under one lock.
    ///
    /// `ready` and `renewal` are a snapshot of the actor's state, written only by the actor
    /// (`publish()`, on every change of the state they derive from), so a request that finds a
    /// credential here finds the one the actor holds. Most requests find a valid credential here, and requests arriving during a
    /// renewal find the renewal to wait for, so neither costs an actor hop; everything else takes
    /// the isolated path.
    struct SharedState: Sendable {
        /// The credential while it is loaded, no renewal is in flight and no failure is
        /// recorded; nil otherwise.
        var ready: Published?
        /// The renewal in flight, while no failure is recorded.
        var renewal: RenewalFlight<Strategy.Value>?
        /// The server clock minus the local clock, in seconds, as the `Date` fields estimate it.
        var skew: TimeInterval = 0
        /// How far ahead of the local clock the server's clock reads at least, as a refusal at a
        /// credential's expiry showed; nil when none did, or a `Date` field contradicted it since.
        var aheadAtLeast: TimeInterval?
        /// How far ahead of the local clock the server's clock reads at most, by the last `Date`
        /// field read; nil before the first.
        var aheadAtMost: TimeInterval?

        /// The server clock minus the local clock as renewal decisions take it: the estimate,
        /// or more when a refusal showed the server's clock reads further ahead.
        var offset: TimeInterval { max(skew, aheadAtLeast ?? skew) }
        /// Whether the last store operation failed (one `storeUnavailable` event per episode).
        var storeFaulted = false
    }

    private func publish() {
        let ready = loaded && failure == nil && inFlight == nil
            ? current.map { Published($0, leeway: policy.leeway(expiresAt: $0.expiresAt, obtainedAt: obtainedAt), revision: revision) } : nil
        let renewal = failure == nil ? inFlight : nil
        shared.withLock { state in
            state.ready = ready
            state.renewal = renewal
        }
        publishState()
        reconcileIfPending()
    }

    deinit {
        // Observers of ``states()`` end rather than wait for a state that will never come.
        let observers = stateObservers.withLock { observers in
            defer { observers.continuations.removeAll() }
            return Array(observers.continuations.values)
        }
        for observer in observers { observer.finish() }
    }

    /// Creates a session; prefer ``SessionRegistry/session(for:strategy:)``.
    public init(account: AccountKey, strategy: Strategy, vault: CredentialVault, policy: RenewalPolicy = .init(), clock: any AuthClock = SystemClock(), events: AuthEvents = AuthEvents(), logger: Logger = Logger(label: "AuthKit"), signOutSteps: SignOutSteps = SignOutSteps()) {
        self.account = account
        self.signOutSteps = signOutSteps
        self.strategy = strategy
        self.vault = vault
        self.policy = policy
        self.clock = clock
        self.events = events
        self.logger = logger
    }

    /// The current time as the server sees it: the local clock plus ``clockSkew``.
    public nonisolated var serverNow: Date { clock.now().addingTimeInterval(clockSkew) }

    /// The estimated server clock minus the local clock, in seconds.
    ///
    /// The server's `Date` fields give the estimate (see
    /// ``observeServerDate(_:sentAt:receivedAt:)``). When the server refuses a credential that
    /// was, by this estimate, within a second or so of its expiry (the race a server whose clock
    /// reads a little ahead causes), the estimate rises by what the credential had left, so that
    /// the next one is renewed before the server's clock reaches its expiry; a `Date` field that
    /// says the server's clock cannot read that far ahead undoes it.
    public nonisolated var clockSkew: TimeInterval { shared.withLock { $0.offset } }

    /// How much further ahead than ``clockSkew`` the server's clock may read, by the last `Date`
    /// field (``RenewalPolicy/skewThreshold`` before the first): a refusal within this of a
    /// credential's expiry may be the race at its expiry.
    nonisolated var clockUncertainty: TimeInterval {
        shared.withLock { state in
            max((state.aheadAtMost ?? state.offset + policy.skewThreshold.seconds) - state.offset, 0)
        }
    }

    /// Records that the server's clock had passed `expiry` when the client read it as `now`
    /// (it refused a credential that expires then): it reads at least that much further ahead
    /// than the estimate, and no further than the last `Date` field allows.
    nonisolated func noteServerPassed(_ expiry: Date, at now: Date) {
        let behind = expiry.timeIntervalSince(now)
        guard behind > 0 else { return }
        shared.withLock { state in
            let ahead = state.offset + behind
            state.aheadAtLeast = min(ahead, state.aheadAtMost ?? ahead)
        }
    }

    /// Reports ``AuthEvent/refreshTokenExpiring(_:expiresAt:)`` for a credential just signed in
    /// or renewed whose renewal ends within ``RenewalPolicy/refreshExpiryNotice`` of `now`.
    func noticeRenewalEnd(of credential: Strategy.Value, now: Date) {
        guard let end = credential.renewableUntil, end.timeIntervalSince(now) <= policy.refreshExpiryNotice.seconds else { return }
        events.emit(.refreshTokenExpiring(account, expiresAt: end))
    }

    /// Stores a new credential after a sign-in; clears a previous failure. Once it is stored, a
    /// renewal in flight is discarded: it neither stores nor publishes its result (its write is
    /// conditional on the record it renewed, which the sign-in replaced).
    ///
    /// When the store refuses the credential, nothing changes: a renewal in flight goes on, and
    /// one whose rotated credential waits for the store to take it keeps trying, so that the
    /// refresh token the server issued last is not lost to a sign-in that did not happen.
    public func signIn(_ credential: Strategy.Value) async throws {
        changingLocally += 1
        defer { endLocalChange() }
        try await vault.save(credential, for: account)
        supersedeRenewals()
        set(credential, obtainedAt: serverNow)
        storeRecovered()
        failure = nil
        failedCredential = nil
        renewalTimes.removeAll()
        events.emit(.signedIn(account))
        noticeRenewalEnd(of: credential, now: serverNow)
    }

    /// Removes the stored credential and forgets it, then runs the container's
    /// ``SignOutSteps`` (what plug-ins keep for the account, such as its cookies). Once the
    /// credential is removed, a renewal in flight is discarded: it neither stores nor publishes
    /// its result, and its waiters get `.notSignedIn`. When the store refuses the removal,
    /// nothing changes (see ``signIn(_:)``).
    /// - Throws: What the store throws removing the credential; or, once the account is signed
    ///   out, the first error of a sign-out step (calling `signOut()` again runs them again).
    public func signOut() async throws {
        changingLocally += 1
        defer { endLocalChange() }
        try await vault.delete(for: account)
        // The lease ended with the record (rule 2 of `RenewalLease`); removed so that nothing of
        // the account is left behind.
        try? await vault.store.delete(account.item(RenewalLease.item))
        supersedeRenewals()
        set(nil, obtainedAt: .distantPast)
        storeRecovered()
        failure = nil
        failedCredential = nil
        events.emit(.signedOut(account))
        try await signOutSteps.run(for: account)
    }

    /// Whether a credential is stored for the account, whatever its expiry: true from a sign-in
    /// (here, or in another process sharing the store) until a sign-out.
    ///
    /// A session that has not read the store yet reads it now; later answers come from the
    /// session, which a store's ``CredentialChangeFeed`` keeps in step with other processes. A
    /// credential whose renewal failed for good still counts as signed in: only a sign-out
    /// removes it, and requests fail with `reauthenticationRequired` until then (``states()``
    /// says so).
    /// - Throws: `AuthError` `.storage` when the store cannot be read: an unavailable store is
    ///   never reported as signed out.
    public func isSignedIn() async throws -> Bool {
        if !loaded { try await load() }
        return current != nil
    }

    /// Makes every renewal planned so far stale: it will neither store nor publish its result.
    func supersedeRenewals() {
        generation &+= 1
        inFlight = nil
        persisting = false
    }

    func set(_ credential: Strategy.Value?, obtainedAt: Date) {
        self.obtainedAt = obtainedAt
        current = credential
        loaded = true
    }

    /// The credential to put on a request now, renewed first when it is due.
    /// - Throws: `AuthError` `.reauthenticationRequired` (fast, after a failure for good),
    ///   `.notSignedIn`, `.excessiveRenewal`, `.storage`, or a renewal error.
    public nonisolated func credentialForRequest() async throws -> Strategy.Value {
        if let ready = readyCredential(at: clock.now()) { return ready.credential }
        return try await pendingCredential()
    }

    /// The credential for a request that ``readyCredential(at:)`` found nothing for: the renewal
    /// in flight, read without entering the actor, or what the actor plans.
    nonisolated func pendingCredential() async throws -> Strategy.Value {
        if let renewal = shared.withLock({ $0.renewal }) { return try await renewal.value }
        return try await resolve(planCredential())
    }

    /// ``pendingCredential()`` as a `Published` reference, for the authentication middleware:
    /// it runs unspecialized, where a generic value it receives across an `await` costs a task
    /// allocation per request (measurable in the renewal storm).
    nonisolated func pendingPublished() async throws -> Published {
        Published(try await pendingCredential())
    }

    /// The loaded credential when it can be used as it is at `now` by the client's clock (not due
    /// for renewal, no renewal in flight, no failure recorded), read without entering the actor;
    /// nil otherwise.
    nonisolated func readyCredential(at now: Date) -> Published? {
        shared.withLock { state in
            guard let ready = state.ready,
                  !strategy.needsRenewal(ready.credential, now: now.addingTimeInterval(state.offset), leeway: ready.leeway) else { return nil }
            return ready
        }
    }
}

// MARK: - Reading the credential without entering the actor

extension AccountSession {
    /// A credential as requests receive it: one object per published credential, so that a
    /// request holds a reference rather than a copy of a value whose size only the strategy
    /// knows (a generic local in an async function costs an allocation per request).
    final class Published: Sendable {
        /// The session's ``revision`` when it published this credential; `.max` for a credential
        /// a request got otherwise (waiting for a renewal, say).
        let revision: UInt64
        let credential: Strategy.Value
        /// The renewal leeway for this credential, bounded by its lifetime.
        let leeway: Duration
        init(_ credential: Strategy.Value, leeway: Duration = .zero, revision: UInt64 = .max) {
            self.revision = revision
            self.credential = credential
            self.leeway = leeway
        }
    }

    /// The credential last published, whether or not it is due for renewal; nil while a
    /// renewal runs or after a failure. Read without entering the actor, to take the credential
    /// off a request to an origin it must not reach (see ``AuthRequest/removingWrites(of:)``).
    nonisolated func loadedCredential() -> Strategy.Value? {
        shared.withLock { $0.ready?.credential }
    }
}

// MARK: - Whether the server took the credential

/// Whether the server took the current credential: what tells a credential that went stale
/// (refused after the server took it) from one the server never takes.
///
/// A request refused with one credential is sent again with a newer one: renewed for it, or the
/// current one when another request renewed meanwhile. When that one is refused too, another
/// try helps only if the server took it before, so that it stopped taking it earlier than the
/// client expected (a token whose issue time the server rounded down, a request held up on a
/// loaded machine), if it is due by the client's own clock (it expired on its way: a renewal
/// whose answer was held up past the token's expiry), or if a newer one came meanwhile. A
/// credential the server never took and the client does not hold due (every request refused,
/// whatever the credential) is not renewed again, however many requests were waiting: one
/// renewal per wave.
extension AccountSession {
    /// Records that the server took `credential`: it answered a request made with it (a status
    /// below 400).
    nonisolated func noteAccepted(_ credential: Published) {
        let revision = credential.revision
        guard revision != .max, acceptedRevision.load(ordering: .relaxed) != revision else { return }
        acceptedRevision.store(revision, ordering: .relaxed)
    }

    /// Whether a request refused with `credential` after a first refusal may try once more: the
    /// server took it since it became current (it went stale since), it is due by the client's
    /// own clock (it expired on the way: a renewal answered, or a request held up, after the
    /// server's expiry of the token), or it is no longer current (a newer one came meanwhile,
    /// which the next try takes without renewing while it is not due). Never after a sign-out:
    /// the request then ends with its refusal.
    func mayTryAgain(after credential: Published) -> Bool {
        guard let current else { return false }
        return credential.credential != current || acceptedRevision.load(ordering: .relaxed) == revision || isDue(current)
    }
}

// MARK: - Clock skew

extension AccountSession {
    /// Records the server's `Date` header, seen at `local`, to estimate clock skew.
    ///
    /// Without the time the request was sent, the server's clock is taken to have read the header
    /// at `local`. Prefer ``observeServerDate(_:sentAt:receivedAt:)``.
    public nonisolated func observeServerDate(_ date: Date, receivedAt local: Date) {
        observeServerDate(date, sentAt: local, receivedAt: local)
    }

    /// Records the server's `Date` header of the response to a request sent at `sent` and received
    /// (whole) at `received`, by the local clock, to estimate clock skew.
    ///
    /// The header says that at some instant between the two the server's clock read between
    /// `date` and one second later (its resolution), so the skew (server minus local) lies
    /// between `date - received` and `date + 1 s - sent`. An estimate within that interval stays
    /// as it is: a slow response (a stalled machine, a long body) widens the interval and forces
    /// no change. An estimate outside it becomes the interval's upper end, the latest the
    /// server's clock can be (erring toward renewing early, never toward using an expired
    /// credential), when the whole interval lies at least ``RenewalPolicy/skewThreshold`` from
    /// zero, or when a server taken to be ahead is still that far ahead at most; else zero.
    /// The interval's upper end also bounds how far ahead a refusal showed the server's clock
    /// reads (see ``clockSkew``).
    public nonisolated func observeServerDate(_ date: Date, sentAt sent: Date, receivedAt received: Date) {
        let lowest = date.timeIntervalSince(received)
        let highest = date.timeIntervalSince(sent) + 1
        let threshold = policy.skewThreshold.seconds
        shared.withLock { state in
            state.aheadAtMost = highest
            // A refusal's lesson that this field contradicts is over (the server's clock went back).
            if let ahead = state.aheadAtLeast, ahead > highest { state.aheadAtLeast = nil }
            guard state.skew < lowest || state.skew > highest else { return }
            let beyond = lowest >= threshold || highest <= -threshold
            let stillAhead = state.skew > highest && highest >= threshold
            state.skew = beyond || stillAhead ? highest : 0
        }
    }

    /// Whether the response to a request sent at `sent` (by the session's clock) is the one whose
    /// `Date` field the authentication middleware reads this second: the first sent in each
    /// second of the session's clock, so that a busy client reads the field about once a second
    /// rather than on every response.
    ///
    /// The estimate needs no more: a field gives the server's time to the second, and each
    /// response's bounds the skew on its own (see ``observeServerDate(_:sentAt:receivedAt:)``).
    /// A change of the server's clock is seen within a second.
    nonisolated func takesServerDate(sentAt sent: Date) -> Bool {
        // A time that `Int64` cannot count in seconds (not finite) is read on every response.
        guard let second = Int64(exactly: sent.timeIntervalSinceReferenceDate.rounded(.down)) else { return true }
        let last = lastDateSecond.load(ordering: .relaxed)
        guard last != second else { return false }
        return lastDateSecond.compareExchange(expected: last, desired: second, ordering: .relaxed).exchanged
    }

    /// Records the server's `Date` field of the response to a request sent at `sent` (by the
    /// session's clock) to estimate clock skew, as ``observeServerDate(_:sentAt:receivedAt:)``
    /// does. A value that is not an HTTP date is ignored, and so is the value read last: a
    /// server's clock moves every second, and the same value again is a stale copy (a shared
    /// cache in front of the server), which would otherwise move the estimate a second further
    /// back with each reading.
    public nonisolated func observeServerDateField(_ value: String, sentAt sent: Date) {
        let isNew = lastDateField.withLock { last in
            guard last != value else { return false }
            last = value
            return true
        }
        guard isNew, let date = HTTPDate.parse(value) else { return }
        observeServerDate(date, sentAt: sent, receivedAt: clock.now())
    }
}

// MARK: - Observers

/// The observers of a session's ``AccountState``, and what they were last told.
struct StateObservers: Sendable {
    /// The state from the session's credential, renewal and failure (nil until it is loaded).
    var base: AccountState?
    /// Whether the last store operation failed, and why.
    var storeFault: String?
    /// The state last sent.
    var sent: AccountState?
    var continuations: [Int: AsyncStream<AccountState>.Continuation] = [:]
    var nextID = 0

    /// The state observers see: a recorded failure or a renewal first, then a store fault, then
    /// signed in or out.
    var effective: AccountState? {
        switch base {
        case .reauthenticationRequired, .renewing: base
        default: storeFault.map { .storeUnavailable(reason: $0) } ?? base
        }
    }

    /// Sends the effective state to every observer when it changed.
    mutating func send() {
        guard let state = effective, state != sent else { return }
        sent = state
        for continuation in continuations.values { continuation.yield(state) }
    }
}

extension AccountSession {
    /// The account's state as it changes, starting with the current one: signed out, signed in
    /// (with the expiry), renewing, re-authentication required, store unavailable. Consecutive
    /// repeats are not sent; a slow reader keeps the newest 64 states.
    ///
    /// The first state needs the stored credential: a session that has not read it yet reads it
    /// now (each new call tries again while the store is unavailable). The sequence ends when the
    /// iterating task is cancelled or the session is released.
    ///
    /// ```swift
    /// for await state in client.session.states() {
    ///     if case .reauthenticationRequired = state { showSignIn(client.account) }
    /// }
    /// ```
    public nonisolated func states() -> AsyncStream<AccountState> {
        let (stream, continuation) = AsyncStream<AccountState>.makeStream(bufferingPolicy: .bufferingNewest(64))
        let (id, loaded) = stateObservers.withLock { observers in
            defer { observers.nextID += 1 }
            observers.continuations[observers.nextID] = continuation
            if let state = observers.effective { continuation.yield(state) }
            return (observers.nextID, observers.base != nil)
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.stateObservers.withLock { $0.continuations.removeValue(forKey: id) }
        }
        // Not loaded yet (or the last load failed: `storeUnavailable`): read it now.
        if !loaded { Task { await self.loadForObservers() } }
        return stream
    }

    /// Reads the stored credential so that observers learn the first state (a failure to read
    /// is reported to them as `storeUnavailable`).
    private func loadForObservers() async {
        if !loaded { try? await load() }
    }

    /// The state from what the actor holds, sent to observers when it changed.
    func publishState() {
        let base: AccountState? = if let failure {
            .reauthenticationRequired(reason: failure.message)
        } else if inFlight != nil {
            .renewing
        } else if !loaded {
            nil
        } else if let current {
            .signedIn(expiresAt: current.expiresAt)
        } else {
            .signedOut
        }
        stateObservers.withLock { observers in
            observers.base = base
            observers.send()
        }
    }

    /// Records the store failing (`reason`) or working again (nil) for observers.
    nonisolated func publishStoreFault(_ reason: String?) {
        stateObservers.withLock { observers in
            guard observers.storeFault != reason else { return }
            observers.storeFault = reason
            observers.send()
        }
    }
}

// MARK: - Store failure episodes

extension AccountSession {
    /// A store failure as the `.storage` error requests get; the first of an episode also sends
    /// a `storeUnavailable` event.
    nonisolated func storageFailure(_ error: CredentialStoreError, _ what: String) -> AuthError {
        let first = shared.withLock { state in
            defer { state.storeFaulted = true }
            return !state.storeFaulted
        }
        if first { events.emit(.storeUnavailable(account, reason: error.message)) }
        publishStoreFault(error.message)
        return AuthError(code: .storage, message: "\(what): \(error.message)", account: account, underlying: error)
    }

    /// Ends a store failure episode.
    nonisolated func storeRecovered() {
        shared.withLock { $0.storeFaulted = false }
        publishStoreFault(nil)
    }
}
