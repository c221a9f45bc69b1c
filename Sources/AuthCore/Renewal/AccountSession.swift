public import Foundation
public import Logging
import Synchronization

/// The credential state of one account in this process: the current credential, the one
/// renewal in flight, the renewal budget and a failure that needs a new sign-in.
///
/// Every client of the account shares one session (``RenewalCoordinator`` hands them out), so
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
/// A refresh token is presented only by the holder of the account's refresh lock, after it has
/// re-read the store; the credential it gets back is written before the lock is released. When
/// the store cannot take it (locked, full, read-only), the renewed credential is used in this
/// process at once, and the renewal keeps the lock and retries the write until it succeeds, so
/// no other process presents the superseded refresh token meanwhile (they wait for the lock and
/// report the store unavailable). The SQLite store's lease lapses if its file stays locked past
/// the lease duration; only then may another process go ahead.
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

    /// What a request may read without entering the actor: the credential while it is loaded,
    /// no renewal is in flight and no failure is recorded (nil otherwise), the renewal in flight
    /// (while no failure is recorded), and the clock skew. Most requests find a valid credential
    /// here, and requests arriving during a renewal find the renewal to wait for, so neither
    /// costs an actor hop; everything else takes the isolated path.
    nonisolated let shared = Mutex(SharedState())
    /// The last `Date` field seen (``observeServerDateField(_:sentAt:)``); a concrete type, so reading it
    /// needs no generic metadata.
    nonisolated let lastDateField = Mutex<String?>(nil)
    /// The second of the session's clock in which a response's `Date` was last read
    /// (``takesServerDate(sentAt:)``); `Int64.min` before the first.
    nonisolated let lastDateSecond = Atomic<Int64>(.min)
    /// The ``revision`` of the last published credential a server took (``noteAccepted(_:)``).
    nonisolated let acceptedRevision = Atomic<UInt64>(.max)
    /// Who follows ``states()``, and what they were last told.
    nonisolated let stateObservers = Mutex(StateObservers())
    /// The change follower of the coordinator that made this session, if its store has a feed.
    nonisolated let changeFollower = Mutex<ChangeFollower?>(nil)

    struct SharedState: Sendable {
        var ready: Published?
        var renewal: RenewalFlight<Strategy.Value>?
        var skew: TimeInterval = 0
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

    /// Creates a session; prefer ``RenewalCoordinator/session(for:strategy:)``.
    public init(account: AccountKey, strategy: Strategy, vault: CredentialVault, policy: RenewalPolicy = .init(), clock: any AuthClock = SystemClock(), events: AuthEvents = AuthEvents(), logger: Logger = Logger(label: "AuthKit")) {
        self.account = account
        self.strategy = strategy
        self.vault = vault
        self.policy = policy
        self.clock = clock
        self.events = events
        self.logger = logger
    }

    /// The current time as the server sees it: the local clock plus the estimated skew.
    public nonisolated var serverNow: Date { clock.now().addingTimeInterval(clockSkew) }

    /// The estimated server clock minus the local clock, in seconds.
    public nonisolated var clockSkew: TimeInterval { shared.withLock { $0.skew } }

    /// Stores a new credential after a sign-in; clears a previous failure. A renewal in flight
    /// is discarded: it neither stores nor publishes its result.
    public func signIn(_ credential: Strategy.Value) async throws {
        changingLocally += 1
        defer { endLocalChange() }
        supersedeRenewals()
        try await vault.save(credential, for: account)
        supersedeRenewals()  // and any renewal planned while the save ran
        set(credential, obtainedAt: serverNow)
        storeRecovered()
        failure = nil
        failedCredential = nil
        renewalTimes.removeAll()
        events.emit(.signedIn(account))
    }

    /// Removes the stored credential and forgets it. A renewal in flight is discarded: it neither
    /// stores nor publishes its result, and its waiters get `.notSignedIn`.
    public func signOut() async throws {
        changingLocally += 1
        defer { endLocalChange() }
        supersedeRenewals()
        try await vault.delete(for: account)
        supersedeRenewals()
        set(nil, obtainedAt: .distantPast)
        storeRecovered()
        failure = nil
        failedCredential = nil
        events.emit(.signedOut(account))
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
    ///
    /// Specialized for ``BearerStrategy``: requests reach this through `any Middleware`, so it
    /// runs as unspecialized generic code that would look up type metadata on every call.
    @_specialize(where Strategy == BearerStrategy)
    nonisolated func readyCredential(at now: Date) -> Published? {
        shared.withLock { state in
            guard let ready = state.ready,
                  !strategy.needsRenewal(ready.credential, now: now.addingTimeInterval(state.skew), leeway: ready.leeway) else { return nil }
            return ready
        }
    }

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
    private enum Plan: Sendable {
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

    private nonisolated func resolve(_ plan: Plan) async throws -> Strategy.Value {
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
    /// The task starts at once on the caller's thread (`Task.immediate`) and runs until the
    /// refresher first suspends: the renewal's request goes out before the work queued behind
    /// this caller (under a burst, the other requests of the burst) rather than after it.
    private nonisolated func start(_ flight: RenewalFlight<Strategy.Value>, _ renewal: Renewal) {
        let operation: @Sendable () async -> Void = { await self.fly(flight, renewal) }
        if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
            Task.immediate(operation: operation)
        } else {
            Task(operation: operation)
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

    private func planCredential() async throws -> Plan {
        if failure != nil { try await recoverFromFailure() }
        if let inFlight { return .wait(inFlight) }
        if !loaded { try await load() }
        guard let credential = current else { return try await planRenewal(from: nil, forcedByRejection: false) }
        if isDue(credential) {
            return try await planRenewal(from: credential, forcedByRejection: false)
        }
        return .use(credential)
    }

    private func planRenewal(from stale: Strategy.Value?, forcedByRejection: Bool) async throws -> Plan {
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
            || policy.renewalCounts(expiresAt: current?.expiresAt, obtainedAt: obtainedAt, now: now, forcedByRejection: forcedByRejection)
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
